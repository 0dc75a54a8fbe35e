// Value entries: append-only. A proposal is checked here (validate) and written
// here on approval (apply); the workflow module `finance_value_entry` calls both.
// Nothing updates or deletes an entry: a correction is a reversal, the opposite
// side for the same amount, naming the original.
import { eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import type { TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { requireItem } from "../../kernel/index.ts";
import { Dec } from "../depreciation/schedule.ts";
import { financeValueEntries } from "./entries.tables.ts";
import { assertCarryingFloor } from "./carrying.ts";
import { assertBookActive, assertBookPolicyActive, assertInPeriod, findBook, requireBook, requireOpenPeriod } from "../books/books.service.ts";
import { SIDE_OF_KIND, type ReverseValueEntry, type ValueEntry, type ValueEntryProposal } from "./entries.schemas.ts";

export type EntryRow = typeof financeValueEntries.$inferSelect;
export type Proposal = z.output<typeof ValueEntryProposal>;

export function toEntryDto(r: EntryRow): z.infer<typeof ValueEntry> {
  const money = { amount: r.amount, currency: r.currency };
  return {
    id: r.id,
    bookId: r.bookId,
    periodId: r.periodId,
    itemId: r.itemId,
    kind: r.kind,
    debit: r.side === "debit" ? money : null,
    credit: r.side === "credit" ? money : null,
    valueDate: r.valueDate,
    description: r.description,
    policyId: r.policyId,
    workflowCaseId: r.workflowCaseId,
    profileId: r.profileId,
    scheduleMonth: r.scheduleMonth,
    reversesEntryId: r.reversesEntryId,
    reason: r.reason,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
  };
}

/** The operator's own asset (not external property) named at `path`. */
export async function requireOwnedItem(ctx: TenantCtx, itemId: string, path: string) {
  const item = await requireItem(ctx, itemId, path);
  if (item.ownership !== "owned") throw new AppError("state_conflict", `item ${item.id} is ${item.ownership} property, not operator-owned`);
  return item;
}

/**
 * Every rule a proposal must meet, changing nothing; field paths under `base`
 * (the proposal body, or the workflow operation). Runs at proposal and again at approval.
 */
export async function validateProposal(ctx: TenantCtx, op: Proposal, base: string): Promise<void> {
  const sides = (["debit", "credit"] as const).filter((s) => op[s] !== undefined);
  if (sides.length !== 1) throw invalid(`${base}/${sides.length === 0 ? "debit" : "credit"}`, "exactly one of debit or credit is required");
  const side = sides[0]!;
  const money = op[side]!;
  if (!new Dec(money.amount).gt(0)) throw invalid(`${base}/${side}/amount`, "must be positive");
  if (SIDE_OF_KIND[op.kind] !== side) throw invalid(`${base}/${side}`, `a ${op.kind} is a ${SIDE_OF_KIND[op.kind]}`);
  await requireOwnedItem(ctx, op.itemId, `${base}/itemId`);
  const book = await requireBook(ctx, op.bookId, `${base}/bookId`);
  if (money.currency !== book.functionalCurrency) throw invalid(`${base}/${side}/currency`, `the book keeps ${book.functionalCurrency}`);
  assertBookActive(book);
  if (op.policyId !== book.policyId) {
    throw new AppError("policy_mismatch", `the book follows depreciation policy ${book.policyId}, not ${op.policyId}`, { extras: { bookPolicyId: book.policyId } });
  }
  await assertBookPolicyActive(ctx, book);
  const period = await requireOpenPeriod(ctx, book, op.periodId, `${base}/periodId`);
  assertInPeriod(period, op.valueDate, `${base}/valueDate`);
  // A credit (impairment, disposal) never takes the carrying amount below zero (409 carrying_amount_below_floor).
  await assertCarryingFloor(ctx, { bookId: book.id, itemId: op.itemId, kind: op.kind, side, amount: money.amount, currency: money.currency, valueDate: op.valueDate }, `this ${op.kind}`);
}

/** Whether a value entry with this id exists (evidence may be bound to one). */
export async function valueEntryExists(ctx: TenantCtx, id: string): Promise<boolean> {
  const row = (await db(ctx).select({ id: financeValueEntries.id }).from(financeValueEntries).where(eq(financeValueEntries.id, id)).limit(1))[0];
  return row !== undefined;
}

/** Writes the approved proposal's entry (inside the approval's transaction). */
export async function applyProposal(ctx: TenantCtx, op: Proposal, caseId: string, reason: string): Promise<EntryRow> {
  const side = op.debit ? "debit" : "credit";
  const money = (op.debit ?? op.credit)!;
  return appendEntry(ctx, {
    bookId: op.bookId,
    periodId: op.periodId,
    itemId: op.itemId,
    kind: op.kind,
    side,
    amount: money.amount,
    currency: money.currency,
    valueDate: op.valueDate,
    description: op.description ?? null,
    policyId: op.policyId,
    workflowCaseId: caseId,
    profileId: null,
    scheduleMonth: null,
    reversesEntryId: null,
    reason,
  });
}

/** What an entry is, in a refusal's words. */
function describeEntry(f: Omit<EntryRow, "id" | "createdAt" | "createdBy">): string {
  if (f.reversesEntryId) return `the reversal of ${f.kind} entry ${f.reversesEntryId}`;
  if (f.kind === "depreciation" && f.scheduleMonth) return `the depreciation for ${f.scheduleMonth}`;
  return `this ${f.kind}`;
}

/**
 * The only insert into value entries. A credit that would take the asset's carrying
 * amount in the book below its floor (zero; the live profiles' residual values for
 * depreciation), on its value date or any later one, is 409 carrying_amount_below_floor.
 */
export async function appendEntry(ctx: TenantCtx, fields: Omit<EntryRow, "id" | "createdAt" | "createdBy">): Promise<EntryRow> {
  await assertCarryingFloor(ctx, fields, describeEntry(fields));
  const row: EntryRow = { id: ctx.deps.newId(), createdAt: ctx.nowIso, createdBy: ctx.actorId, ...fields };
  await writer(ctx).insert(financeValueEntries).values(row);
  return row;
}

/**
 * Appends the exact offsetting entry of `id`: same book, item, kind and amount, the
 * other side, into an open period of the book. A reversal is not reversed again and
 * an entry is reversed once (409). A depreciation entry's reversal keeps its profile
 * (a change of estimate counts it; the run's month stays posted, so runs do not post it
 * again). Reversing a debit (an acquisition or addition) is a credit: while depreciation
 * or other credits posted against it would leave the carrying amount below zero, it is
 * 409 carrying_amount_below_floor; reverse those first.
 */
export async function reverseEntry(ctx: RequestCtx, id: string, input: z.output<typeof ReverseValueEntry>): Promise<z.infer<typeof ValueEntry>> {
  return withTx(ctx, async (ctx) => {
    const original = (await db(ctx).select().from(financeValueEntries).where(eq(financeValueEntries.id, id)))[0];
    if (!original) throw notFound("value entry");
    if (original.reversesEntryId) throw new AppError("state_conflict", "the entry is itself a reversal");
    const already = (await db(ctx).select({ id: financeValueEntries.id }).from(financeValueEntries).where(eq(financeValueEntries.reversesEntryId, id)))[0];
    if (already) throw new AppError("state_conflict", `the entry is already reversed by ${already.id}`, { extras: { reversedBy: already.id } });
    const book = (await findBook(ctx, original.bookId))!;
    assertBookActive(book);
    const period = await requireOpenPeriod(ctx, book, input.periodId ?? original.periodId, "/body/periodId");
    const inPeriod = (d: string) => d >= period.startsOn && d <= period.endsOn;
    const valueDate = input.valueDate ?? (inPeriod(original.valueDate) ? original.valueDate : period.startsOn);
    assertInPeriod(period, valueDate, "/body/valueDate");
    const { id: _id, createdAt: _at, createdBy: _by, ...facts } = original;
    const row = await appendEntry(ctx, {
      ...facts,
      periodId: period.id,
      side: original.side === "debit" ? "credit" : "debit",
      valueDate,
      workflowCaseId: null,
      profileId: original.kind === "depreciation" ? original.profileId : null,
      scheduleMonth: null,
      reversesEntryId: original.id,
      reason: input.reason,
    });
    return toEntryDto(row);
  });
}
