import { defineRoute } from "../../../platform/http/define-route.ts";
import { problemBody } from "../../../platform/errors/app-error.ts";
import { CaseIdParams, DecideWorkflowCase, WorkflowCaseDetail } from "../workflow.schemas.ts";
import { decideCase } from "../decision.ts";

export const decideWorkflowCase = defineRoute({
  family: "assets",
  method: "post",
  path: "/workflow-cases/{id}/decision",
  operationId: "decideWorkflowCase",
  summary: "Approve or reject a pending workflow case",
  description: [
    "Recent AAL2 session required (403 step_up_required) and an Idempotency-Key: a replay returns the original outcome.",
    "404 unless the caller may see the case; never its maker, whatever their role (403 maker_cannot_decide); the caller needs the type's decide capability (ams_review for every type accepted today; 403 capability_denied).",
    "`expectedVersion` must be the case's version (409 version_conflict, nothing changes); the case must be `pending` (409 state_conflict); `reason` must not be blank.",
    "Reject: the case becomes `rejected`, nothing is applied. Approve: the operation is validated again and applied in the same transaction that makes the case `completed`",
    "and attaches `applicationReceipt` (the records changed or created, at their new versions). If it no longer applies, nothing is applied, the case stays `pending`",
    "at its version, the refusal is added to its history, and the answer is 409 state_conflict with the reason in `detail` and `refusal`.",
  ].join(" "),
  tags: ["Workflow cases"],
  auth: "session",
  // Who may decide depends on the case (its maker never, its type's capability otherwise); the service checks both.
  capability: "ams_view",
  stepUp: true,
  idempotency: "required",
  params: CaseIdParams,
  body: DecideWorkflowCase,
  file: import.meta.path,
  responses: { 200: { description: "The decided case with its history", schema: WorkflowCaseDetail } },
  handler: async (ctx, { params, body }) => {
    const outcome = await decideCase(ctx, params.id, body);
    if ("decided" in outcome) return { status: 200, body: outcome.decided };
    // A refused approval is answered, not thrown: its history entry must commit with the request's transaction.
    const err = outcome.refused;
    return {
      status: err.status,
      body: new Response(JSON.stringify(problemBody(err, ctx.requestId)), { status: err.status, headers: { "content-type": "application/problem+json" } }),
    };
  },
});
