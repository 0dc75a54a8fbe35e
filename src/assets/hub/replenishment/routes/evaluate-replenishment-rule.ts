import { defineRoute } from "../../../../platform/http/define-route.ts";
import { Empty, IdParams } from "../../../../platform/http/common-schemas.ts";
import { ReplenishmentEvaluation } from "../replenishment.schemas.ts";
import { evaluateReplenishmentRule as evaluate } from "../replenishment.service.ts";

export const evaluateReplenishmentRule = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/replenishment-rules/{id}/evaluate",
  operationId: "evaluateReplenishmentRule",
  summary: "Evaluate a replenishment rule now",
  description:
    "What the replenishment job does for every rule every 5 minutes, for one rule now. stock counts the model's active items at the rule's location and " +
    "its sub-locations (a quantity-tracked item counts its quantity). Below min, with no open replenishment task of the rule, it raises one: a quantity " +
    "line of the model for max − stock, at and to the rule's location, urgent when stock is 0. Idempotent: a rule never has two open tasks, so " +
    "evaluating again returns the open task with `created: false`.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: Empty,
  file: import.meta.path,
  responses: { 200: { description: "The evaluation", schema: ReplenishmentEvaluation } },
  handler: async (ctx, { params }) => ({ status: 200, body: await evaluate(ctx, params.id) }),
});
