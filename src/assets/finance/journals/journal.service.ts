// Journal batches: a closed period's value entries turned into balanced
// double-entry lines. Every entry contributes its amount twice, its asset-side
// account on its own side and the counter-account on the other, so the lines of
// any set of entries balance exactly; lines are netted per account.
import { and, asc, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { saveVersion } from "../../../platform/db/records.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { financeJournalBatches, type AccountPair, type JournalLine } from "./journals.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { requireBook } from "../books/books.service.ts";
import { findPeriod } from "../books/books.service.ts";
import { ACCOUNTS } from "../adapters/xbrl-gl.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";
import { ENTRY_KINDS } from "../value-entries/entries.schemas.ts";
import type { CreateJournalBatch, ExportJournalBatch, JournalBatch, JournalExport } from "./journals.schemas.ts";
import { invalid } from "../../../platform/errors/app-error.ts";
import { CSV_MEDIA_TYPE, toCsv, type CsvCell } from "../../../platform/csv/csv.ts";

type BatchRow = typeof financeJournalBatches.$inferSelect;
type EntryRow = typeof financeValueEntries.$inferSelect;

/** The default chart: the XBRL GL adapter's, so both views of the book agree. */
export function defaultMapping(): Record<string, AccountPair> {
  return Object.fromEntries(
    ENTRY_KINDS.map((k) => {
      const [account, accountName, counterAccount, counterAccountName] = ACCOUNTS[k];
      return [k, { account, accountName, counterAccount, counterAccountName }];
    }),
  );
}

/** Balanced lines, netted per account, ordered by account code. Pure. */
export function journalLines(entries: Pick<EntryRow, "kind" | "side" | "amount">[], mapping: Record<string, AccountPair>, digits: number): JournalLine[] {
  const net = new Map<string, { name: string; balance: Dec }>(); // debit positive
  const post = (account: string, name: string, side: "debit" | "credit", amount: string) => {
    const cur = net.get(account) ?? { name, balance: new Dec(0) };
    cur.balance = side === "debit" ? cur.balance.plus(amount) : cur.balance.minus(amount);
    net.set(account, cur);
  };
  for (const e of entries) {
    const pair = mapping[e.kind]!;
    post(pair.account, pair.accountName, e.side, e.amount);
    post(pair.counterAccount, pair.counterAccountName, e.side === "debit" ? "credit" : "debit", e.amount);
  }
  return [...net.entries()]
    .filter(([, v]) => !v.balance.isZero())
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([account, v], i) => ({ lineNumber: i + 1, account, accountName: v.name, side: v.balance.gt(0) ? "debit" : "credit", amount: fixed(v.balance.abs(), digits) }));
}

function toBatchDto(r: BatchRow): z.infer<typeof JournalBatch> {
  const money = (amount: string) => ({ amount, currency: r.currency });
  return {
    ...r,
    lines: r.lines.map((l) => ({
      lineNumber: l.lineNumber,
      account: l.account,
      accountName: l.accountName,
      debit: l.side === "debit" ? money(l.amount) : null,
      credit: l.side === "credit" ? money(l.amount) : null,
    })),
    totalDebit: money(r.totalDebit),
    totalCredit: money(r.totalCredit),
  };
}

/**
 * One batch per closed period of a book (409 duplicate on a second): a closed
 * period's entries no longer change, so the batch is final too. An override's
 * account must not be its own counter-account (400).
 */
export async function createJournalBatch(ctx: RequestCtx, input: z.output<typeof CreateJournalBatch>): Promise<z.infer<typeof JournalBatch>> {
  const mapping = defaultMapping();
  for (const [kind, pair] of Object.entries(input.accounts ?? {})) {
    if (!pair) continue;
    if (pair.account === pair.counterAccount) throw invalid(`/body/accounts/${kind}/counterAccount`, "must differ from account");
    mapping[kind] = pair;
  }
  return withTx(ctx, async (ctx) => {
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    const period = await findPeriod(ctx, input.periodId);
    if (!period || period.bookId !== book.id) throw invalid("/body/periodId", "no such period in this book");
    if (period.state !== "closed") throw new AppError("state_conflict", `period ${period.name} is ${period.state}; a journal batch is prepared from a closed period`, { extras: { state: period.state } });
    const existing = (await db(ctx).select({ id: financeJournalBatches.id }).from(financeJournalBatches).where(and(eq(financeJournalBatches.bookId, book.id), eq(financeJournalBatches.periodId, period.id))))[0];
    if (existing) throw new AppError("duplicate", `period ${period.name} is already journalised in batch ${existing.id}`, { extras: { batchId: existing.id } });
    const entries = await db(ctx).select().from(financeValueEntries).where(eq(financeValueEntries.periodId, period.id)).orderBy(asc(financeValueEntries.id));
    const digits = minorUnits(book.functionalCurrency);
    const lines = journalLines(entries, mapping, digits);
    const total = (side: "debit" | "credit") => fixed(lines.filter((l) => l.side === side).reduce((a, l) => a.plus(l.amount), new Dec(0)), digits);
    const row: BatchRow = {
      ...newRecordMeta(ctx),
      bookId: book.id,
      periodId: period.id,
      currency: book.functionalCurrency,
      entryCount: entries.length,
      mapping,
      lines,
      totalDebit: total("debit"),
      totalCredit: total("credit"),
      state: "prepared",
      exportCount: 0,
      exportedAt: null,
      exportedBy: null,
    };
    // Cannot differ (each entry posts both sides); a guard against a future mapping bug.
    if (row.totalDebit !== row.totalCredit) throw new Error(`unbalanced journal batch: ${row.totalDebit} ≠ ${row.totalCredit}`);
    await writer(ctx).insert(financeJournalBatches).values(row);
    return toBatchDto(row);
  });
}

/** RFC 4180 CSV of the batch (the platform writer: formula-safe): header, one row per line, a totals row. Deterministic for a batch. */
export function journalCsv(batch: BatchRow, periodEndsOn: string): string {
  const rows: CsvCell[][] = batch.lines.map((l) => [batch.id, periodEndsOn, l.lineNumber, l.account, l.accountName, l.side === "debit" ? l.amount : "", l.side === "credit" ? l.amount : "", batch.currency]);
  rows.push([batch.id, periodEndsOn, "", "TOTAL", "", batch.totalDebit, batch.totalCredit, batch.currency]);
  const header = ["batch_id", "posting_date", "line", "account", "account_name", "debit", "credit", "currency"];
  return toCsv([header, ...rows]);
}

/** Serialises the batch and records the export (every export counts; the document is the same each time). */
export async function exportJournalBatch(ctx: RequestCtx, id: string, input: z.output<typeof ExportJournalBatch>): Promise<z.infer<typeof JournalExport>> {
  const format = input.format ?? "csv";
  return withTx(ctx, async (ctx) => {
    const batch = (await db(ctx).select().from(financeJournalBatches).where(eq(financeJournalBatches.id, id)))[0];
    if (!batch) throw notFound("journal batch");
    const period = (await findPeriod(ctx, batch.periodId))!;
    const document = journalCsv(batch, period.endsOn);
    const saved = await saveVersion(writer(ctx), financeJournalBatches, batch, { state: "exported", exportCount: batch.exportCount + 1, exportedAt: ctx.nowIso, exportedBy: ctx.actorId }, ctx.nowIso);
    return { batchId: batch.id, format, mediaType: CSV_MEDIA_TYPE, filename: `journal-${period.startsOn}-${period.endsOn}-${batch.id}.csv`, document, exportCount: saved.exportCount, exportedAt: ctx.nowIso };
  });
}
