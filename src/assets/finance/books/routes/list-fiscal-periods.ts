import { defineRoute } from "../../../../platform/http/define-route.ts";
import { ListPeriodsQuery, PeriodList } from "../books.schemas.ts";
import { listPeriods } from "../books.service.ts";

export const listFiscalPeriods = defineRoute({
  family: "assets",
  method: "get",
  path: "/finance/periods",
  operationId: "listFiscalPeriods",
  summary: "List fiscal periods (beyond the spec)",
  description: "Beyond the spec. Filters: `bookId`, `state`. Newest change first.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  query: ListPeriodsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of periods", schema: PeriodList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await listPeriods(ctx, query) }),
});
