import { defineRoute } from "../../../platform/http/define-route.ts";
import { CancelChangeSet, ChangeSet, ChangeSetParams } from "../change-sets.schemas.ts";
import { cancelChangeSet as cancel } from "../change-sets.service.ts";

export const cancelChangeSet = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/change-sets/{changeSetId}/cancel",
  operationId: "cancelChangeSet",
  summary: "Withdraw a draft or submitted change set",
  description: [
    "`draft` or `submitted` → `cancelled`, a final state, with a required `reason`. The set's author (with planning_edit) cancels their own set;",
    "anyone else needs planning_review (403 capability_denied). Approved, rejected, applied, conflicted or cancelled sets are 409 state_conflict;",
    "a stale `expectedVersion` is 409 version_conflict. Who cancelled, when and why are on the set (`cancellation`) and in its state history.",
  ].join(" "),
  tags: ["Change sets"],
  auth: "session",
  capability: ["planning_edit", "planning_review"],
  params: ChangeSetParams,
  body: CancelChangeSet,
  file: import.meta.path,
  responses: { 200: { description: "The change set, cancelled", schema: ChangeSet } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await cancel(ctx, params.projectId, params.changeSetId, body) }),
});
