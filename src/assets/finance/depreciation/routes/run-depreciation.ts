import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { DepreciationRun, RunDepreciation } from "../depreciation.schemas.ts";
import { runDepreciation as run } from "../depreciation.service.ts";

export const runDepreciation = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/depreciation/{id}/run",
  operationId: "runDepreciation",
  summary: "Post a period's depreciation for a book",
  description:
    "`id` is the book. For every profile of the book, posts one `depreciation` credit entry per schedule month not yet posted whose month starts on or before the period's end " +
    "(months an earlier period missed are caught up here), dated the month's last day clamped into the period. Once per book and period: a repeated run answers the first run and posts nothing. " +
    "The period must be an open period of the book (400 / 409 period_closed), the book active (409 book_inactive) and its policy the active depreciation policy (409 policy_inactive). " +
    "A carrying amount never goes below its floor: a month whose charge would take the asset's carrying amount in the book (Σ debit − credit of its entries, on the month's value date or any later one) below the residual values of its live profiles " +
    "(an asset with no acquisition in the book, one impaired towards its residual) is not posted; the profile stops there and is listed in `skipped` with the figures (code carrying_amount_below_floor). Its months stay due: a later run catches them up once the carrying amount allows.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: RunDepreciation,
  file: import.meta.path,
  responses: { 200: { description: "The run and the entries it posted", schema: DepreciationRun } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await run(ctx, params.id, body.periodId) }),
});
