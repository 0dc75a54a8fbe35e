import { getRoute } from "../collection-routes.ts";
import { WorkItem } from "../collections.schemas.ts";

export const getWorkItem = getRoute({
  collection: "work",
  operationId: "getWorkItem",
  summary: "Read one of the project's work items",
  tag: "Work",
  record: WorkItem,
  file: import.meta.path,
});
