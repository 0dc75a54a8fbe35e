import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { AuditDetail } from "../audits.schemas.ts";
import { getAudit as get } from "../audits.service.ts";

export const getAudit = defineRoute({
  family: "assets",
  method: "get",
  path: "/audits/{id}",
  operationId: "getAudit",
  summary: "Read an audit with its tallies and history",
  description: "Beyond the spec (the Location of POST /audits). Tallies of expected and counted items and of results by kind and review state, read in one snapshot with the audit.",
  tags: ["Audits"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The audit", schema: AuditDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
