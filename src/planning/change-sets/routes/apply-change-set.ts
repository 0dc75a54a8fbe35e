import { defineRoute, refuseAfterCommit } from "../../../platform/http/define-route.ts";
import { AppError } from "../../../platform/errors/app-error.ts";
import { ApplyChangeSet, ChangeSet, ChangeSetParams } from "../change-sets.schemas.ts";
import { applyChangeSet as apply } from "../change-sets.service.ts";

export const applyChangeSet = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/change-sets/{changeSetId}/apply",
  operationId: "applyChangeSet",
  summary: "Apply an approved change set atomically",
  description: [
    "planning_apply and an Idempotency-Key. Only an `approved` set is applied (409 state_conflict naming its state).",
    "All operations apply in one transaction, each record's updatedAt moving on → 200 `applied`.",
    "When any record's updatedAt differs from its `expectedUpdatedAt`, none applies: the set is saved `conflicted` and the answer is 409 state_conflict with `conflicts` (`{ target, expectedUpdatedAt, actualUpdatedAt }`) and the `changeSet` as stored.",
  ].join(" "),
  tags: ["Change sets"],
  auth: "session",
  capability: "planning_apply",
  idempotency: "required",
  params: ChangeSetParams,
  body: ApplyChangeSet,
  file: import.meta.path,
  responses: { 200: { description: "The change set, applied", schema: ChangeSet } },
  handler: async (ctx, { params, body }) => {
    const outcome = await apply(ctx, params.projectId, params.changeSetId, body);
    if (outcome.applied) return { status: 200, body: outcome.changeSet };
    // The conflicted state must commit, so the 409 is answered after commit, not thrown (which would roll it back).
    return refuseAfterCommit(
      new AppError("state_conflict", `${outcome.conflicts.length} record(s) changed since the set was proposed; nothing was applied and the set is conflicted`, {
        extras: { conflicts: outcome.conflicts, changeSet: outcome.changeSet },
      }),
    );
  },
});
