import { defineRoute } from "../../../../platform/http/define-route.ts";
import { ForecastReplacements, ReplacementForecasts } from "../forecast.schemas.ts";
import { forecastReplacements as forecast } from "../forecast.service.ts";

export const forecastReplacements = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/replacement-forecasts",
  operationId: "forecastReplacements",
  summary: "Expected replacement date and cost of an asset or a category's assets",
  description:
    "For `itemId` or every owned, not disposed asset of `categoryId` (exactly one; at most 500 assets) with a depreciation profile in the book: the months left in the profile's schedule after `asOf`'s month, shortened by the item's condition (new/good ×1, fair ×0.75, poor ×0.5, broken → now), give the expected replacement date; the expected cost is `replacementCost` or the profile's cost. " +
    "Changes nothing, but is not one of the contract's read-only POSTs (§6), so it takes an Idempotency-Key (a replay answers the first result).",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: ForecastReplacements,
  file: import.meta.path,
  responses: { 200: { description: "The forecasts", schema: ReplacementForecasts } },
  handler: async (ctx, { body }) => ({ status: 200, body: await forecast(ctx, body) }),
});
