import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { Budget } from "../costs.schemas.ts";
import { getBudget as get } from "../costs.service.ts";

export const getBudget = defineRoute({
  family: "assets",
  method: "get",
  path: "/finance/budgets/{id}",
  operationId: "getBudget",
  summary: "Read a budget with its actual against budget (beyond the spec)",
  description: "Beyond the spec: where actual against budget is read. `actual` is computed at the request's time, as on creation.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The budget", schema: Budget } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
