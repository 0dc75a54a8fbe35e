import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { Audit, CreateAudit } from "../audits.schemas.ts";
import { createAudit as create } from "../audits.service.ts";

export const createAudit = defineRoute({
  family: "assets",
  method: "post",
  path: "/audits",
  operationId: "createAudit",
  summary: "Plan an audit of locations and/or categories",
  description: [
    "Creates a `planned` audit. The scope is `locationIds` (each with every location inside it), `categoryIds`, or both (items of those categories at those locations);",
    "at least one is required (400 at /body/locationIds). Unknown or archived locations and categories are 400 at their index. `dueAt` must be in the future.",
    "Nothing is expected or counted until counting starts (POST /audits/{id}/start).",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_operate",
  body: CreateAudit,
  file: import.meta.path,
  responses: { 201: { description: "The audit", schema: Audit, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const audit = await create(ctx, body);
    return { status: 201, body: audit, headers: { Location: `/api/assets/audits/${audit.id}?partnerId=${query.partnerId}` } };
  },
});
