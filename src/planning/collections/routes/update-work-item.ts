import { updateRoute } from "../collection-routes.ts";
import { UpdateWorkItem, WorkItem } from "../collections.schemas.ts";

export const updateWorkItem = updateRoute({
  collection: "work",
  operationId: "updateWorkItem",
  summary: "Change one of the project's work items (versioned)",
  description: "`state` moves: open → in_progress, done or cancelled; in_progress → open, done or cancelled; done → in_progress (reopen); others are 409 state_conflict naming the current state.",
  tag: "Work",
  body: UpdateWorkItem,
  record: WorkItem,
  file: import.meta.path,
});
