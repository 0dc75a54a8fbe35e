import { defineRoute, refuseAfterCommit } from "../../../platform/http/define-route.ts";
import { CaseIdParams, DecideWorkflowCase, WorkflowCaseDetail } from "../workflow.schemas.ts";
import { decideCase } from "../decision.ts";
import { DECIDE_CAPABILITIES } from "../operations/registry.ts";

export const decideWorkflowCase = defineRoute({
  family: "assets",
  method: "post",
  path: "/workflow-cases/{id}/decision",
  operationId: "decideWorkflowCase",
  summary: "Approve or reject a pending workflow case",
  description: [
    "Recent AAL2 session required (403 step_up_required) and an Idempotency-Key: a replay returns the original outcome.",
    `The caller needs one of the types' decide capabilities (${DECIDE_CAPABILITIES.join(", ")}; 403 capability_denied before the case is looked up).`,
    "404 unless the caller may see the case (they made it, or hold its type's decide capability: finance_approve for finance_value_entry, ams_review for the other types);",
    "never its maker, whatever their role (403 maker_cannot_decide); and the case's own type's decide capability (403 capability_denied).",
    "`expectedVersion` must be the case's version (409 version_conflict, nothing changes); the case must be `pending` (409 state_conflict); `reason` must not be blank.",
    "Reject: the case becomes `rejected`, nothing is applied. Approve: the operation is validated again and applied in the same transaction that makes the case `completed`",
    "and attaches `applicationReceipt` (the records changed or created, at their new versions). If it no longer applies, nothing is applied, the case stays `pending`",
    "at its version, the refusal is added to its history, and the answer is 409 state_conflict with the reason in `detail` and `refusal`.",
  ].join(" "),
  tags: ["Workflow cases"],
  auth: "session",
  // Any type's decide capability passes the route (contract §5: before the case is read); which one
  // applies depends on the case's type, and its maker never decides: the service checks both.
  capability: DECIDE_CAPABILITIES,
  stepUp: true,
  idempotency: "required",
  params: CaseIdParams,
  body: DecideWorkflowCase,
  file: import.meta.path,
  responses: { 200: { description: "The decided case with its history", schema: WorkflowCaseDetail } },
  handler: async (ctx, { params, body }) => {
    const outcome = await decideCase(ctx, params.id, body);
    if ("decided" in outcome) return { status: 200, body: outcome.decided };
    // A refused approval is answered after commit, not thrown: its history entry must commit with the request's transaction.
    return refuseAfterCommit(outcome.refused);
  },
});
