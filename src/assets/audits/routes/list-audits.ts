import { defineRoute } from "../../../platform/http/define-route.ts";
import { AuditList, ListAuditsQuery } from "../audits.schemas.ts";
import { listAudits as list } from "../audits.service.ts";

export const listAudits = defineRoute({
  family: "assets",
  method: "get",
  path: "/audits",
  operationId: "listAudits",
  summary: "List audits",
  description: [
    "Ordered by (updatedAt, id) descending; counts, reviews and moves of state update an audit.",
    "`q`: every word must begin a word of the name (case and accents ignored). `status`: comma-separated.",
    "`locationId`: audits whose location scope overlaps the location (a scope location inside it, the location itself, or one around it); category-only audits never match.",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_view",
  query: ListAuditsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of audits", schema: AuditList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
