// Closing a fiscal period. Apart from books.service so that the workflow lookup
// (pending proposals) does not put the workflow registry, which reaches back into
// the finance entry rules, into a cycle with them.
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { withTx } from "../../../platform/db/transactions.ts";
import { hasPendingCase } from "../../workflow/index.ts";
import { findPeriod, markPeriodClosed, toPeriodDto } from "./books.service.ts";
import { depreciationHasRun } from "../depreciation/depreciation.service.ts";
import type { ClosePeriod, Period } from "./books.schemas.ts";

/**
 * Refused (409) while the book's depreciation for the period has not run or a
 * finance value entry proposal into the period is pending; afterwards nothing
 * posts into it (proposals, approvals, runs and reversals all check the period).
 */
export async function closePeriod(ctx: RequestCtx, id: string, input: z.output<typeof ClosePeriod>): Promise<z.infer<typeof Period>> {
  return withTx(ctx, async (ctx) => {
    const period = await findPeriod(ctx, id);
    if (!period) throw notFound("period");
    assertVersion("period", period, input.expectedVersion);
    if (period.state !== "open") throw new AppError("state_conflict", `the period is already ${period.state}`, { extras: { state: period.state } });
    if (!(await depreciationHasRun(ctx, period.bookId, period.id))) {
      throw new AppError("state_conflict", `depreciation for period ${period.name} has not run (POST /finance/depreciation/${period.bookId}/run)`, { extras: { state: period.state } });
    }
    if (await hasPendingCase(ctx, "finance_value_entry", "periodId", period.id)) {
      throw new AppError("state_conflict", `value entry proposals into period ${period.name} are pending; approve or reject them first`, { extras: { state: period.state } });
    }
    return toPeriodDto(await markPeriodClosed(ctx, period));
  });
}
