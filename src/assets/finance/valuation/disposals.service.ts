// Disposal completion: the financial side of an asset already disposed of through
// its lifecycle (workflow lifecycle_disposition). The carrying amount in the book
// on the value date is derecognised by one disposal entry; proceeds − carrying
// amount is the gain (positive) or loss (negative).
import { and, eq, gt } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import type { TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { findItem } from "../../kernel/index.ts";
import { financeDisposals } from "./valuation.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { assertBookActive, assertBookPolicyActive, assertInPeriod, requireBook, requireOpenPeriod } from "../books/books.service.ts";
import { appendEntry } from "../value-entries/entries.service.ts";
import { breachFigures, carryingAmount } from "../value-entries/carrying.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";
import type { CompleteDisposal, Disposal } from "./disposals.schemas.ts";

type DisposalRow = typeof financeDisposals.$inferSelect;

function toDisposalDto(r: DisposalRow): z.infer<typeof Disposal> {
  const money = (amount: string) => ({ amount, currency: r.currency });
  return { ...r, proceeds: money(r.proceeds), carryingAmount: money(r.carryingAmount), gainOrLoss: money(r.gainOrLoss) };
}

/** Items whose disposal the book has completed (depreciation runs skip them). */
export async function disposedItemIds(ctx: TenantCtx, bookId: string): Promise<Set<string>> {
  const rows = await db(ctx).select({ itemId: financeDisposals.itemId }).from(financeDisposals).where(eq(financeDisposals.bookId, bookId));
  return new Set(rows.map((r) => r.itemId));
}

/**
 * `itemId`'s disposal completes once per book (409 state_conflict after). The item
 * must be `disposed` (409 otherwise: physical disposal goes through the workflow
 * first); no entry of the item may be valued after `valueDate` (409: the carrying
 * amount would not be the last one). The usual posting checks apply (active book on
 * the active policy, open period containing valueDate, proceeds in the book's currency).
 */
export async function completeDisposal(ctx: RequestCtx, itemId: string, input: z.output<typeof CompleteDisposal>): Promise<z.infer<typeof Disposal>> {
  return withTx(ctx, async (ctx) => {
    const item = await findItem(ctx, itemId);
    if (!item) throw notFound("item");
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    if (input.proceeds.currency !== book.functionalCurrency) throw invalid("/body/proceeds/currency", `the book keeps ${book.functionalCurrency}`);
    assertBookActive(book);
    await assertBookPolicyActive(ctx, book);
    const period = await requireOpenPeriod(ctx, book, input.periodId, "/body/periodId");
    assertInPeriod(period, input.valueDate, "/body/valueDate");
    const done = (await db(ctx).select().from(financeDisposals).where(and(eq(financeDisposals.bookId, book.id), eq(financeDisposals.itemId, item.id))))[0];
    if (done) throw new AppError("state_conflict", `the disposal of item ${item.id} is already completed in this book (${done.id})`, { extras: { disposalId: done.id } });
    if (item.lifecycle !== "disposed") {
      throw new AppError("state_conflict", `item ${item.id} is ${item.lifecycle}; dispose of it (workflow lifecycle_disposition) before completing the disposal in the books`, { extras: { lifecycle: item.lifecycle } });
    }
    const later = (
      await db(ctx)
        .select({ id: financeValueEntries.id, valueDate: financeValueEntries.valueDate })
        .from(financeValueEntries)
        .where(and(eq(financeValueEntries.bookId, book.id), eq(financeValueEntries.itemId, item.id), gt(financeValueEntries.valueDate, input.valueDate)))
        .limit(1)
    )[0];
    if (later) throw new AppError("state_conflict", `entry ${later.id} of the item is valued ${later.valueDate}, after the disposal date`, { extras: { entryId: later.id } });
    const digits = minorUnits(book.functionalCurrency);
    const carrying = await carryingAmount(ctx, book.id, item.id, input.valueDate);
    // Only entries written before the rule could leave a negative carrying amount; nothing to derecognise then.
    if (carrying.lt(0)) {
      const breach = { bookId: book.id, itemId: item.id, currency: book.functionalCurrency, valueDate: input.valueDate, amount: new Dec(0), carrying, carryingOn: input.valueDate, floor: new Dec(0), floorBasis: "zero" as const };
      throw new AppError("carrying_amount_below_floor", `the carrying amount of item ${item.id} in book ${book.id} on ${input.valueDate} is negative (${fixed(carrying, digits)}); correct its entries with reversals first`, {
        extras: { bookId: book.id, itemId: item.id, valueDate: input.valueDate, floorBasis: "zero", ...breachFigures(breach) },
      });
    }
    const entry = carrying.isZero()
      ? null
      : await appendEntry(ctx, {
          bookId: book.id,
          periodId: period.id,
          itemId: item.id,
          kind: "disposal",
          side: "credit",
          amount: fixed(carrying, digits),
          currency: book.functionalCurrency,
          valueDate: input.valueDate,
          description: "derecognition on disposal",
          policyId: book.policyId,
          workflowCaseId: null,
          profileId: null,
          scheduleMonth: null,
          reversesEntryId: null,
          reason: input.reason,
        });
    const gainOrLoss = new Dec(input.proceeds.amount).minus(carrying);
    const row: DisposalRow = {
      id: ctx.deps.newId(),
      bookId: book.id,
      itemId: item.id,
      periodId: period.id,
      valueDate: input.valueDate,
      currency: book.functionalCurrency,
      proceeds: input.proceeds.amount,
      carryingAmount: fixed(carrying, digits),
      gainOrLoss: fixed(gainOrLoss, digits),
      outcome: gainOrLoss.gt(0) ? "gain" : gainOrLoss.lt(0) ? "loss" : "nil",
      entryId: entry?.id ?? null,
      reason: input.reason,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(financeDisposals).values(row);
    return toDisposalDto(row);
  });
}

/** Disposals completed for the item in the book, for TCO (proceeds). */
export async function disposalsOf(ctx: TenantCtx, bookId: string, itemIds: string[]): Promise<DisposalRow[]> {
  if (itemIds.length === 0) return [];
  const rows = await db(ctx).select().from(financeDisposals).where(eq(financeDisposals.bookId, bookId));
  const wanted = new Set(itemIds);
  return rows.filter((r) => wanted.has(r.itemId));
}
