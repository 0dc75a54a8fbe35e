import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Audit, StartAudit } from "../audits.schemas.ts";
import { startAudit as start } from "../audits.service.ts";

export const startAudit = defineRoute({
  family: "assets",
  method: "post",
  path: "/audits/{id}/start",
  operationId: "startAudit",
  summary: "Start counting: freeze the expected list",
  description: [
    "Beyond the spec: how counting starts. planned → counting (else 409 state_conflict naming the status).",
    "The expected list is frozen now: every item in scope with its location, condition and quantity, except disposed and consumed items",
    "and items away on a checkout or in transit. Each expected item starts with a `missing` result until someone counts it.",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: StartAudit,
  file: import.meta.path,
  responses: { 200: { description: "The audit, counting", schema: Audit } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await start(ctx, params.id, body) }),
});
