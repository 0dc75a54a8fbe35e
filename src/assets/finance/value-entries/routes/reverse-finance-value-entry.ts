import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { ReverseValueEntry, ValueEntry } from "../entries.schemas.ts";
import { reverseEntry } from "../entries.service.ts";

export const reverseFinanceValueEntry = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/value-entries/{id}/reverse",
  operationId: "reverseFinanceValueEntry",
  summary: "Reverse a value entry with an exact offsetting entry",
  description:
    "Appends an entry of the same book, asset, kind, amount and currency on the other side, whose `reversesEntryId` names the original; nothing is edited or deleted. " +
    "It posts into `periodId` (default the original's period), which must be an open period of the book (409 period_closed), on `valueDate` (default the original's when in that period, else the period's first day). " +
    "An entry is reversed once and a reversal is not reversed (409 state_conflict). A depreciation entry's reversal keeps its `profileId` (a later change of estimate re-spreads the amount; runs do not post the month again). " +
    "Reversing a debit (acquisition, addition) is a credit: while depreciation or other credits posted against it would leave the asset's carrying amount below zero on any date, it is 409 carrying_amount_below_floor (figures in the problem); reverse those first. Step-up required. Answers the reversal.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  stepUp: true,
  params: IdParams,
  body: ReverseValueEntry,
  file: import.meta.path,
  responses: { 200: { description: "The reversing entry", schema: ValueEntry } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await reverseEntry(ctx, params.id, body) }),
});
