import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { ClosePeriod, Period } from "../books.schemas.ts";
import { closePeriod } from "../close-period.ts";

export const closeFiscalPeriod = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/periods/{id}/close",
  operationId: "closeFiscalPeriod",
  summary: "Close a fiscal period",
  description:
    "409 state_conflict while the book's depreciation for the period has not run (POST /finance/depreciation/{bookId}/run) or a finance_value_entry proposal into the period is pending, and when already closed. " +
    "Afterwards nothing posts into the period: proposals, approvals, runs and reversals naming it are 409 period_closed.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: ClosePeriod,
  file: import.meta.path,
  responses: { 200: { description: "The closed period", schema: Period } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await closePeriod(ctx, params.id, body) }),
});
