// Books and fiscal periods, and the checks every posting shares: an active book,
// the book's policy being the active depreciation policy, an open period.
import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { saveVersion } from "../../../platform/db/records.ts";
import { newRecordMeta, type TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate } from "../../../platform/paging/paging.ts";
import { activePolicy, getPolicy } from "../../policies/index.ts";
import { financeBooks, financePeriods } from "./books.tables.ts";
import type { Book, CloseBook, CreateBook, CreatePeriod, FinanceContext, ListBooksQuery, ListPeriodsQuery, Period } from "./books.schemas.ts";

export type BookRow = typeof financeBooks.$inferSelect;
export type PeriodRow = typeof financePeriods.$inferSelect;

export const toBookDto = (r: BookRow): z.infer<typeof Book> => ({ ...r });
export const toPeriodDto = (r: PeriodRow): z.infer<typeof Period> => ({ ...r });

/** Contexts of commands and of jobs alike. */
type Ctx = TenantCtx;

// ---------------------------------------------------------------- lookups shared by every posting

export async function findBook(ctx: Ctx, id: string): Promise<BookRow | undefined> {
  return (await db(ctx).select().from(financeBooks).where(eq(financeBooks.id, id)))[0];
}

/** The book named in a body (400 at `path` when unknown). */
export async function requireBook(ctx: Ctx, id: string, path: string): Promise<BookRow> {
  const book = await findBook(ctx, id);
  if (!book) throw invalid(path, "no such book");
  return book;
}

export function assertBookActive(book: BookRow): void {
  if (book.state !== "active") throw new AppError("book_inactive", `book ${book.id} is ${book.state}`, { extras: { state: book.state } });
}

/** The book's policy must be the active depreciation policy (a superseded one no longer governs postings). */
export async function assertBookPolicyActive(ctx: Ctx, book: BookRow): Promise<void> {
  const active = await activePolicy(ctx, "depreciation");
  if (!active || active.id !== book.policyId) {
    throw new AppError("policy_inactive", `the book's depreciation policy ${book.policyId} is not the active depreciation policy${active ? ` (${active.id} is)` : " (none is active)"}`);
  }
}

export async function findPeriod(ctx: Ctx, id: string): Promise<PeriodRow | undefined> {
  return (await db(ctx).select().from(financePeriods).where(eq(financePeriods.id, id)))[0];
}

/** A period of `book` (400 at `path` otherwise) that is open (409 period_closed). */
export async function requireOpenPeriod(ctx: Ctx, book: BookRow, periodId: string, path: string): Promise<PeriodRow> {
  const period = await findPeriod(ctx, periodId);
  if (!period || period.bookId !== book.id) throw invalid(path, "no such period in this book");
  if (period.state !== "open") throw new AppError("period_closed", `period ${period.name} (${period.startsOn} to ${period.endsOn}) is closed; nothing posts into it`, { extras: { state: period.state } });
  return period;
}

export function assertInPeriod(period: PeriodRow, date: string, path: string): void {
  if (date < period.startsOn || date > period.endsOn) throw invalid(path, `must lie in the period, ${period.startsOn} to ${period.endsOn}`);
}

/** The book's period containing `date`, if any. */
export async function periodContaining(ctx: Ctx, bookId: string, date: string): Promise<PeriodRow | undefined> {
  return (
    await db(ctx)
      .select()
      .from(financePeriods)
      .where(and(eq(financePeriods.bookId, bookId), lte(financePeriods.startsOn, date), gte(financePeriods.endsOn, date)))
      .limit(1)
  )[0];
}

// ---------------------------------------------------------------- books

export async function createBook(ctx: RequestCtx, input: z.output<typeof CreateBook>): Promise<z.infer<typeof Book>> {
  const policy = await getPolicy(ctx, input.policyId).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "not_found") throw invalid("/body/policyId", "no such policy");
    throw e;
  });
  if (policy.type !== "depreciation") throw invalid("/body/policyId", `a ${policy.type} policy, not a depreciation policy`);
  if (policy.state !== "active") throw new AppError("policy_inactive", `policy ${policy.id} is ${policy.state}`, { extras: { state: policy.state } });
  return withTx(ctx, async (ctx) => {
    const row: BookRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      functionalCurrency: input.functionalCurrency,
      policyId: input.policyId,
      fiscalYearStartMonth: input.fiscalYearStartMonth ?? 1,
      state: "active",
    };
    await writer(ctx).insert(financeBooks).values(row);
    return toBookDto(row);
  });
}

export async function listBooks(ctx: RequestCtx, q: z.output<typeof ListBooksQuery>) {
  const filters = new FilterSet().add("state", q.state, (v) => inArray(financeBooks.state, v));
  return listByUpdate(ctx, financeBooks, q, filters, toBookDto);
}

/** Closing a book: nothing is proposed, run or posted in it any more. Its entries stay. */
export async function closeBook(ctx: RequestCtx, id: string, input: z.output<typeof CloseBook>): Promise<z.infer<typeof Book>> {
  return withTx(ctx, async (ctx) => {
    const book = await findBook(ctx, id);
    if (!book) throw notFound("book");
    assertVersion("book", book, input.expectedVersion);
    if (book.state !== "active") throw new AppError("state_conflict", `the book is already ${book.state}`, { extras: { state: book.state } });
    return toBookDto(await saveVersion(writer(ctx), financeBooks, book, { state: "closed" }, ctx.nowIso));
  });
}

// ---------------------------------------------------------------- periods

export async function createPeriod(ctx: RequestCtx, input: z.output<typeof CreatePeriod>): Promise<z.infer<typeof Period>> {
  if (input.endsOn < input.startsOn) throw invalid("/body/endsOn", "must be on or after startsOn");
  const days = (Date.parse(`${input.endsOn}T00:00:00Z`) - Date.parse(`${input.startsOn}T00:00:00Z`)) / 86_400_000;
  if (days > 366) throw invalid("/body/endsOn", "a period spans at most 366 days");
  return withTx(ctx, async (ctx) => {
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    assertBookActive(book);
    const overlapping = (
      await db(ctx)
        .select()
        .from(financePeriods)
        .where(and(eq(financePeriods.bookId, book.id), lte(financePeriods.startsOn, input.endsOn), gte(financePeriods.endsOn, input.startsOn)))
        .limit(1)
    )[0];
    if (overlapping) throw new AppError("duplicate", `the period overlaps period ${overlapping.name} (${overlapping.startsOn} to ${overlapping.endsOn}) of the book`);
    const row: PeriodRow = {
      ...newRecordMeta(ctx),
      bookId: book.id,
      name: input.name,
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      state: "open",
      closedAt: null,
      closedBy: null,
    };
    await writer(ctx).insert(financePeriods).values(row);
    return toPeriodDto(row);
  });
}

export async function listPeriods(ctx: RequestCtx, q: z.output<typeof ListPeriodsQuery>) {
  const filters = new FilterSet()
    .add("bookId", q.bookId, (v) => eq(financePeriods.bookId, v))
    .add("state", q.state, (v) => inArray(financePeriods.state, v));
  return listByUpdate(ctx, financePeriods, q, filters, toPeriodDto);
}

/** Marks the period closed (the caller has checked it may close). */
export async function markPeriodClosed(ctx: RequestCtx, period: PeriodRow): Promise<PeriodRow> {
  return saveVersion(writer(ctx), financePeriods, period, { state: "closed", closedAt: ctx.nowIso, closedBy: ctx.actorId }, ctx.nowIso);
}

// ---------------------------------------------------------------- context

/** Bounded: a partner keeps a handful of books; the lists stop at these sizes. */
export const CONTEXT_MAX_BOOKS = 200;
export const CONTEXT_MAX_OPEN_PERIODS = 500;

export async function financeContext(ctx: RequestCtx): Promise<z.infer<typeof FinanceContext>> {
  const books = await db(ctx).select().from(financeBooks).orderBy(asc(financeBooks.name), asc(financeBooks.id)).limit(CONTEXT_MAX_BOOKS);
  const open = await db(ctx)
    .select()
    .from(financePeriods)
    .where(eq(financePeriods.state, "open"))
    .orderBy(asc(financePeriods.startsOn), asc(financePeriods.id))
    .limit(CONTEXT_MAX_OPEN_PERIODS);
  const activePolicies = [];
  for (const type of ["identity", "custody", "depreciation", "permissions"] as const) {
    const p = await activePolicy(ctx, type);
    if (p) activePolicies.push({ type, id: p.id, revision: p.revision });
  }
  return {
    books: books.map(toBookDto),
    openPeriods: open.map(toPeriodDto),
    activePolicies,
    currencies: [...new Set(books.map((b) => b.functionalCurrency))].sort(),
    capabilities: { finance_propose: ctx.capabilities.has("finance_propose"), finance_approve: ctx.capabilities.has("finance_approve") },
    asOf: ctx.nowIso,
  };
}
