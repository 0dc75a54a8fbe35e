import { listRoute } from "../collection-routes.ts";
import { WorkListQuery, WorkItemList } from "../collections.schemas.ts";

export const listWorkItems = listRoute({
  collection: "work",
  operationId: "listWorkItems",
  summary: "List the project's work items",
  tag: "Work",
  description: "The project's work items, ordered by (updatedAt, id) descending; `state` filters (comma-separated). A project out of the caller's scope is 404.",
  query: WorkListQuery,
  list: WorkItemList,
  file: import.meta.path,
});
