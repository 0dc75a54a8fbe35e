import { defineRoute } from "../../../../platform/http/define-route.ts";
import { CreateLifecycleCost, LifecycleCost } from "../costs.schemas.ts";
import { recordLifecycleCost } from "../costs.service.ts";

export const createLifecycleCost = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/lifecycle-costs",
  operationId: "createLifecycleCost",
  summary: "Record a lifecycle cost of an asset",
  description:
    "An append-only cost of owning or running an operator-owned asset beyond its acquisition and its work orders (energy, consumables, licence, operation, insurance, maintenance bought outside a work order, other), incurred on a date not in the future. It counts in TCO analyses and in the actuals of budgets in its currency.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: CreateLifecycleCost,
  file: import.meta.path,
  responses: { 201: { description: "The cost record", schema: LifecycleCost } },
  handler: async (ctx, { body }) => ({ status: 201, body: await recordLifecycleCost(ctx, body) }),
});
