import { defineRoute } from "../../../platform/http/define-route.ts";
import { ChangeSet, ChangeSetParams, SubmitChangeSet } from "../change-sets.schemas.ts";
import { submitChangeSet as submit } from "../change-sets.service.ts";

export const submitChangeSet = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/change-sets/{changeSetId}/submit",
  operationId: "submitChangeSet",
  summary: "Submit a draft change set for review",
  description: [
    "`draft` → `submitted` (a set created with `submit: false`). planning_edit, and only the set's author (403 capability_denied otherwise):",
    "the author stays the maker, who can never review it. Any other state is 409 state_conflict naming it; a stale `expectedVersion` is 409 version_conflict.",
    "The optional `reason` is kept in the set's state history.",
  ].join(" "),
  tags: ["Change sets"],
  auth: "session",
  capability: "planning_edit",
  params: ChangeSetParams,
  body: SubmitChangeSet,
  file: import.meta.path,
  responses: { 200: { description: "The change set, submitted", schema: ChangeSet } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await submit(ctx, params.projectId, params.changeSetId, body) }),
});
