import { defineRoute } from "../../../../platform/http/define-route.ts";
import { FinanceContext } from "../books.schemas.ts";
import { CONTEXT_MAX_BOOKS, CONTEXT_MAX_OPEN_PERIODS, financeContext } from "../books.service.ts";

export const getFinanceContext = defineRoute({
  family: "assets",
  method: "get",
  path: "/finance/context",
  operationId: "getFinanceContext",
  summary: "The caller's books, open periods, active policies, currencies and finance capabilities",
  description:
    `Every book of the partner (at most ${CONTEXT_MAX_BOOKS}, by name), every open fiscal period (at most ${CONTEXT_MAX_OPEN_PERIODS}, by start date), ` +
    "the active policy of each type, the books' functional currencies, and whether the caller holds finance_propose and finance_approve. Any member may ask (ams_view), so a client can tell what it may offer.",
  tags: ["Finance"],
  auth: "session",
  capability: "ams_view",
  file: import.meta.path,
  responses: { 200: { description: "The finance context", schema: FinanceContext } },
  handler: async (ctx) => ({ status: 200, body: await financeContext(ctx) }),
});
