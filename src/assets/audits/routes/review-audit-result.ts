import { defineRoute } from "../../../platform/http/define-route.ts";
import { AuditResult, AuditResultParams, ReviewAuditResult } from "../audits.schemas.ts";
import { reviewAuditResult as review } from "../audits.service.ts";

export const reviewAuditResult = defineRoute({
  family: "assets",
  method: "post",
  path: "/audits/{id}/results/{resultId}/review",
  operationId: "reviewAuditResult",
  summary: "Accept or reject one discrepancy",
  description: [
    "Only while the audit is in_review (409 state_conflict naming the status); a found result needs no review (409).",
    "Anyone who counted the item is refused (403 maker_cannot_decide). Accepting wrong_location or unexpected means the item is put where it was counted when the audit is posted;",
    "accepting a counted condition makes it the item's; accepting missing records it in the item's history without moving the item. Rejecting changes nothing.",
    "A result may be reviewed again until posting; the latest decision counts and each one is kept in the audit's history.",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_review",
  params: AuditResultParams,
  body: ReviewAuditResult,
  file: import.meta.path,
  responses: { 200: { description: "The reviewed result", schema: AuditResult } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await review(ctx, params.id, params.resultId, body) }),
});
