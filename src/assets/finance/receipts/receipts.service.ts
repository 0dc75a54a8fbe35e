// Supplier receipts and their reconciliation against acquisition value entries.
// Matching is per asset over one period of the book: the sum of the asset's receipts
// received in the period against its net acquisition (debits − credits, so a reversal
// cancels its original) valued in the period.
import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { financeReceipts } from "./receipts.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { findPeriod, requireBook } from "../books/books.service.ts";
import { requireOwnedItem } from "../value-entries/entries.service.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";
import type { CreateReceipt, Receipt, Reconcile, Reconciliation } from "./receipts.schemas.ts";

type ReceiptRow = typeof financeReceipts.$inferSelect;

function toReceiptDto(r: ReceiptRow): z.infer<typeof Receipt> {
  const { currency, amount, ...rest } = r;
  return { ...rest, amount: { amount, currency } };
}

/** An append-only receipt for an owned asset, in the book's currency; once per book, supplier and reference. */
export async function createReceipt(ctx: RequestCtx, input: z.output<typeof CreateReceipt>): Promise<z.infer<typeof Receipt>> {
  if (input.receivedOn > ctx.nowIso.slice(0, 10)) throw invalid("/body/receivedOn", "must not be in the future");
  if (!new Dec(input.amount.amount).gt(0)) throw invalid("/body/amount/amount", "must be positive");
  return withTx(ctx, async (ctx) => {
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    if (input.amount.currency !== book.functionalCurrency) throw invalid("/body/amount/currency", `the book keeps ${book.functionalCurrency}`);
    await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    const same = (
      await db(ctx)
        .select({ id: financeReceipts.id })
        .from(financeReceipts)
        .where(and(eq(financeReceipts.bookId, book.id), eq(financeReceipts.supplier, input.supplier), eq(financeReceipts.reference, input.reference)))
    )[0];
    if (same) throw new AppError("duplicate", `receipt ${input.reference} of ${input.supplier} is already recorded`, { extras: { receiptId: same.id } });
    const row: ReceiptRow = {
      id: ctx.deps.newId(),
      bookId: book.id,
      itemId: input.itemId,
      supplier: input.supplier,
      reference: input.reference,
      receivedOn: input.receivedOn,
      amount: input.amount.amount,
      currency: input.amount.currency,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(financeReceipts).values(row);
    return toReceiptDto(row);
  });
}

/** Read-only: classifies every asset with a receipt or an acquisition entry in the period. */
export async function reconcile(ctx: RequestCtx, input: z.output<typeof Reconcile>): Promise<z.infer<typeof Reconciliation>> {
  const book = await requireBook(ctx, input.bookId, "/body/bookId");
  const period = await findPeriod(ctx, input.periodId);
  if (!period || period.bookId !== book.id) throw invalid("/body/periodId", "no such period in this book");
  const currency = book.functionalCurrency;
  const digits = minorUnits(currency);
  const money = (d: Dec) => ({ amount: fixed(d, digits), currency });

  const receipts = await db(ctx)
    .select()
    .from(financeReceipts)
    .where(and(eq(financeReceipts.bookId, book.id), gte(financeReceipts.receivedOn, period.startsOn), lte(financeReceipts.receivedOn, period.endsOn)))
    .orderBy(asc(financeReceipts.receivedOn), asc(financeReceipts.id));
  const entries = await db(ctx)
    .select({ id: financeValueEntries.id, itemId: financeValueEntries.itemId, side: financeValueEntries.side, amount: financeValueEntries.amount })
    .from(financeValueEntries)
    .where(
      and(
        eq(financeValueEntries.bookId, book.id),
        eq(financeValueEntries.kind, "acquisition"),
        gte(financeValueEntries.valueDate, period.startsOn),
        lte(financeValueEntries.valueDate, period.endsOn),
      ),
    )
    .orderBy(asc(financeValueEntries.valueDate), asc(financeValueEntries.id));

  type Acc = { receiptIds: string[]; entryIds: string[]; receipts: Dec; acquisitions: Dec };
  const perItem = new Map<string, Acc>();
  const acc = (itemId: string) => {
    let a = perItem.get(itemId);
    if (!a) perItem.set(itemId, (a = { receiptIds: [], entryIds: [], receipts: new Dec(0), acquisitions: new Dec(0) }));
    return a;
  };
  for (const r of receipts) {
    const a = acc(r.itemId);
    a.receiptIds.push(r.id);
    a.receipts = a.receipts.plus(r.amount);
  }
  for (const e of entries) {
    const a = acc(e.itemId);
    a.entryIds.push(e.id);
    a.acquisitions = e.side === "debit" ? a.acquisitions.plus(e.amount) : a.acquisitions.minus(e.amount);
  }

  const out: z.infer<typeof Reconciliation> = {
    bookId: book.id,
    periodId: period.id,
    from: period.startsOn,
    to: period.endsOn,
    currency,
    matched: [],
    amountDifferences: [],
    unmatchedReceipts: [],
    unmatchedAcquisitions: [],
    totals: { receipts: money(new Dec(0)), acquisitions: money(new Dec(0)), difference: money(new Dec(0)) },
    asOf: ctx.nowIso,
  };
  let totalReceipts = new Dec(0);
  let totalAcquisitions = new Dec(0);
  for (const itemId of [...perItem.keys()].sort()) {
    const a = perItem.get(itemId)!;
    totalReceipts = totalReceipts.plus(a.receipts);
    totalAcquisitions = totalAcquisitions.plus(a.acquisitions);
    const line = { itemId, receiptIds: a.receiptIds, entryIds: a.entryIds, receipts: money(a.receipts), acquisitions: money(a.acquisitions) };
    const hasReceipts = a.receiptIds.length > 0;
    // An acquisition reversed within the window nets to zero: nothing was acquired.
    const hasAcquisition = !a.acquisitions.isZero();
    if (!hasReceipts && !hasAcquisition) continue;
    if (!hasAcquisition) out.unmatchedReceipts.push(line);
    else if (!hasReceipts) out.unmatchedAcquisitions.push(line);
    else if (a.receipts.eq(a.acquisitions)) out.matched.push(line);
    else out.amountDifferences.push({ ...line, difference: money(a.receipts.minus(a.acquisitions)) });
  }
  out.totals = { receipts: money(totalReceipts), acquisitions: money(totalAcquisitions), difference: money(totalReceipts.minus(totalAcquisitions)) };
  return out;
}
