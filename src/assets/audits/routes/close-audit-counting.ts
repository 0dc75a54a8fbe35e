import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Audit, CloseAuditCounting } from "../audits.schemas.ts";
import { closeAuditCounting as close } from "../audits.service.ts";

export const closeAuditCounting = defineRoute({
  family: "assets",
  method: "post",
  path: "/audits/{id}/close-counting",
  operationId: "closeAuditCounting",
  summary: "Close counting: freeze the results for review",
  description: "Beyond the spec: how review starts. counting → in_review (else 409 state_conflict naming the status). No count is taken after it, so the results are final; every discrepancy (a result other than found) then awaits review.",
  tags: ["Audits"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CloseAuditCounting,
  file: import.meta.path,
  responses: { 200: { description: "The audit, in review", schema: Audit } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await close(ctx, params.id, body) }),
});
