// The carrying-amount rollforward of a book as of a date: per asset and in total,
// opening (before the fiscal year containing asOf) + additions − depreciation −
// impairments − disposals = closing, from the append-only entries, exactly.
import { and, asc, eq, lte } from "drizzle-orm";
import { decodeCursor, encodeCursor } from "../../../platform/paging/paging.ts";
import type { z } from "@hono/zod-openapi";
import { invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db } from "../../../platform/db/transactions.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { findBook, periodContaining, toPeriodDto, type BookRow } from "../books/books.service.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";
import type { Rollforward, RollforwardQuery } from "./rollforward.schemas.ts";

type D = InstanceType<typeof Dec>;
export const COLUMNS = ["opening", "additions", "depreciation", "impairments", "disposals", "closing"] as const;
export type Columns = Record<(typeof COLUMNS)[number], D>;

/** First day of the book's fiscal year containing `date`. */
export function fiscalYearStart(book: BookRow, date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const y = month >= book.fiscalYearStartMonth ? year : year - 1;
  return `${String(y).padStart(4, "0")}-${String(book.fiscalYearStartMonth).padStart(2, "0")}-01`;
}

const zero = (): Columns => ({ opening: new Dec(0), additions: new Dec(0), depreciation: new Dec(0), impairments: new Dec(0), disposals: new Dec(0), closing: new Dec(0) });

export interface RollforwardData {
  book: BookRow;
  openingDate: string;
  perItem: Map<string, Columns>;
  totals: Columns;
}

/** Every entry of the book up to asOf, folded per asset (value entries are the only source). */
export async function computeRollforward(ctx: RequestCtx, book: BookRow, asOf: string): Promise<RollforwardData> {
  const openingDate = fiscalYearStart(book, asOf);
  const rows = await db(ctx)
    .select({ itemId: financeValueEntries.itemId, kind: financeValueEntries.kind, side: financeValueEntries.side, amount: financeValueEntries.amount, valueDate: financeValueEntries.valueDate })
    .from(financeValueEntries)
    .where(and(eq(financeValueEntries.bookId, book.id), lte(financeValueEntries.valueDate, asOf)))
    .orderBy(asc(financeValueEntries.itemId));
  const perItem = new Map<string, Columns>();
  const totals = zero();
  for (const r of rows) {
    const cols = perItem.get(r.itemId) ?? zero();
    perItem.set(r.itemId, cols);
    // Signed on the carrying amount: a debit raises it, a credit lowers it.
    const signed = r.side === "debit" ? new Dec(r.amount) : new Dec(r.amount).neg();
    const add = (key: keyof Columns, v: D) => {
      cols[key] = cols[key].plus(v);
      totals[key] = totals[key].plus(v);
    };
    add("closing", signed);
    if (r.valueDate < openingDate) add("opening", signed);
    else if (r.kind === "acquisition" || r.kind === "addition") add("additions", signed);
    else if (r.kind === "depreciation") add("depreciation", signed.neg());
    else if (r.kind === "impairment") add("impairments", signed.neg());
    else add("disposals", signed.neg());
  }
  return { book, openingDate, perItem, totals };
}

export async function rollforward(ctx: RequestCtx, q: z.output<typeof RollforwardQuery>): Promise<z.infer<typeof Rollforward>> {
  const book = await findBook(ctx, q.bookId);
  if (!book) throw notFound("book");
  if (q.currency !== book.functionalCurrency) throw invalid("/query/currency", `the book keeps ${book.functionalCurrency}`);
  // The shared signed cursor (contract §7), bound to this route and filter; the position is the last asset id.
  const binding = { bookId: book.id, currency: q.currency, asOf: q.asOf };
  const after = q.cursor ? decodeCursor(ctx, binding, q.cursor).i : "";
  const data = await computeRollforward(ctx, book, q.asOf);
  const digits = minorUnits(book.functionalCurrency);
  const money = (d: D) => ({ amount: fixed(d, digits), currency: book.functionalCurrency });
  const shape = (c: Columns) => Object.fromEntries(COLUMNS.map((k) => [k, money(c[k])])) as Record<(typeof COLUMNS)[number], { amount: string; currency: string }>;
  const ids = [...data.perItem.keys()].sort().filter((id) => id > after);
  const page = ids.slice(0, q.limit);
  const period = await periodContaining(ctx, book.id, q.asOf);
  return {
    filter: { bookId: book.id, currency: q.currency, asOf: q.asOf, limit: q.limit, cursor: q.cursor ?? null },
    context: { bookName: book.name, openingDate: data.openingDate, asOf: q.asOf, period: period ? toPeriodDto(period) : null, generatedAt: ctx.nowIso },
    items: page.map((itemId) => ({ itemId, ...shape(data.perItem.get(itemId)!) })),
    totals: shape(data.totals),
    assetCount: data.perItem.size,
    nextCursor: ids.length > page.length ? encodeCursor(ctx, binding, { t: q.asOf, i: page[page.length - 1]! }) : null,
  };
}
