import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { ChangeEstimate, DepreciationProfile } from "../depreciation.schemas.ts";
import { changeEstimate } from "../depreciation.service.ts";

export const changeDepreciationEstimate = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/depreciation/{id}/change-estimate",
  operationId: "changeDepreciationEstimate",
  summary: "Change a profile's useful life or residual value, prospectively",
  description:
    "From the first month not yet posted, the current carrying amount (cost less posted depreciation and net impairments) less the new residual is spread over the remaining life " +
    "(the new total life less the months already elapsed; 400 when none remain) by the profile's method, in full months. Posted months and every earlier estimate are kept (`estimates`). " +
    "units_of_production needs `unitsPlan` for the remaining months. It posts nothing: the runs post its months, each only while the asset's carrying amount stays at or above its floor (see the run). 409 state_conflict when the asset is fully depreciated; 409 version_conflict on a stale expectedVersion.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: ChangeEstimate,
  file: import.meta.path,
  responses: { 200: { description: "The profile with its estimate history", schema: DepreciationProfile } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await changeEstimate(ctx, params.id, body) }),
});
