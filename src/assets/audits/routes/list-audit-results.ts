import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { AuditResultList, ListAuditResultsQuery } from "../audits.schemas.ts";
import { listAuditResults as list } from "../audits.service.ts";

export const listAuditResults = defineRoute({
  family: "assets",
  method: "get",
  path: "/audits/{id}/results",
  operationId: "listAuditResults",
  summary: "List an audit's results",
  description: [
    "One result per item: expected items from the start of counting, unexpected ones from their first count.",
    "While counting, results follow the counts (an expected item not yet counted reads `missing`); from in_review on they are frozen.",
    "Ordered by (updatedAt, id) descending; a planned audit has none. `kind` and `reviewState` are comma-separated; `reviewState=pending` lists what blocks posting.",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  query: ListAuditResultsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of results", schema: AuditResultList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.id, query) }),
});
