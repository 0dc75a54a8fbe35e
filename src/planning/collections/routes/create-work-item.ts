import { createRoute } from "../collection-routes.ts";
import { CreateWorkItem, WorkItem } from "../collections.schemas.ts";

export const createWorkItem = createRoute({
  collection: "work",
  operationId: "createWorkItem",
  summary: "Add work items to the project",
  description: "A work item (task) of the work breakdown, created `open`.",
  tag: "Work",
  body: CreateWorkItem,
  record: WorkItem,
  schemaName: "CreateWorkItem",
  file: import.meta.path,
});
