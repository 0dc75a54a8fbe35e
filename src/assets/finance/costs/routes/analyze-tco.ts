import { defineRoute } from "../../../../platform/http/define-route.ts";
import { AnalyzeTco, TcoAnalysis } from "../costs.schemas.ts";
import { analyzeTco as analyze } from "../costs.service.ts";

export const analyzeTco = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/tco/analyze",
  operationId: "analyzeTco",
  summary: "Total cost of ownership of an asset or a model",
  description:
    "For `itemId` or every owned asset of `modelId` (exactly one; at most 500 assets), in the book's currency up to `asOf`: acquisition (the book's acquisition and addition entries, net of reversals) + completed work orders' stated costs + lifecycle costs − proceeds of completed disposals, per asset (with months owned since the first acquisition entry and cost per month) and in total. " +
    "Costs in another currency are listed in `excluded`, never converted. Changes nothing, so it takes no Idempotency-Key (contract: a read-only POST).",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  idempotency: "none",
  body: AnalyzeTco,
  file: import.meta.path,
  responses: { 200: { description: "The analysis", schema: TcoAnalysis } },
  handler: async (ctx, { body }) => ({ status: 200, body: await analyze(ctx, body) }),
});
