import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { Schedule, ScheduleRequest } from "../depreciation.schemas.ts";
import { profileSchedule } from "../depreciation.service.ts";

export const getDepreciationSchedule = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/depreciation/{id}/schedule",
  operationId: "getDepreciationSchedule",
  summary: "The full depreciation schedule of a profile to the end of life",
  description:
    "POST as the spec lists it; it changes nothing. One row per month: amounts rounded to the currency's minor units by cumulative rounding, so each month is within one minor unit " +
    "of its exact share and each estimate's rows sum exactly to its opening carrying amount minus its residual (cost minus residual without a change of estimate). " +
    "Mid-month: half a month at the start and at the end. Rows before a change of estimate come from the earlier estimate (`estimateSeq`); `posted` marks months a run has posted.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  params: IdParams,
  body: ScheduleRequest,
  file: import.meta.path,
  responses: { 200: { description: "The schedule", schema: Schedule } },
  handler: async (ctx, { params }) => ({ status: 200, body: await profileSchedule(ctx, params.id) }),
});
