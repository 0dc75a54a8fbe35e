import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { CreateDepreciationProfile, DepreciationProfile } from "../depreciation.schemas.ts";
import { createProfile } from "../depreciation.service.ts";

export const createDepreciationProfile = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/depreciation",
  operationId: "createDepreciationProfile",
  summary: "Create an asset's depreciation profile in a book (beyond the spec)",
  description: [
    "Beyond the spec: how profiles come to exist. One per asset and book (409 duplicate); an operator-owned asset; an active book whose policy is the active depreciation policy.",
    "`cost` and `residualValue` in the book's currency, residual ≤ cost. `method`, `usefulLifeMonths` and `convention` default to the active depreciation policy's rule for the item's category",
    "(conventions computed: full_month, mid_month). Methods: straight_line; declining_balance (`decliningRate`, annual, charged monthly on the carrying amount) and",
    "double_declining_balance (rate 24 / usefulLifeMonths), both switching to straight-line over the remaining months when that gives more; sum_of_years_digits",
    "(year digits counted from the end of life, spread evenly over each year's months); units_of_production (`unitsPlan`, expected units per month).",
  ].join(" "),
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  body: CreateDepreciationProfile,
  file: import.meta.path,
  responses: { 201: { description: "The profile with its first estimate", schema: DepreciationProfile, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const profile = await createProfile(ctx, body);
    return { status: 201, body: profile, headers: { Location: `/api/assets/finance/depreciation/${profile.id}/schedule?partnerId=${query.partnerId}` } };
  },
});
