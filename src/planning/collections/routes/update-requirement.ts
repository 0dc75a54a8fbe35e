import { updateRoute } from "../collection-routes.ts";
import { UpdateRequirement, Requirement } from "../collections.schemas.ts";

export const updateRequirement = updateRoute({
  collection: "requirements",
  operationId: "updateRequirement",
  summary: "Change one of the project's requirements (versioned)",
  description: "`state` moves: draft → assigned; assigned → in_progress; in_progress → submitted; submitted → accepted or revision_requested; revision_requested → in_progress or submitted; open states → waived or cancelled; assigned, in_progress and revision_requested → expired once the due date has passed in the project's time zone. Others are 409 state_conflict naming the current state.",
  tag: "Requirements",
  body: UpdateRequirement,
  record: Requirement,
  file: import.meta.path,
});
