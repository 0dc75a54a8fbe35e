// Budgets (actual against budget), lifecycle cost records and total cost of
// ownership. Actuals and TCO are computed when asked, from the records that own
// the facts: value entries (capital spend, acquisitions), lifecycle costs, work
// orders' completion costs (maintenance service) and completed disposals.
import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { visibleRows } from "../../../platform/db/pending.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { items } from "../../kernel/kernel.tables.ts";
import { requireCategory, requireModel } from "../../catalogue/index.ts";
import { requireLocation } from "../../locations/index.ts";
import { listWorkOrders } from "../../maintenance/index.ts";
import { financeBudgets, financeLifecycleCosts } from "./costs.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { findPeriod, requireBook } from "../books/books.service.ts";
import { requireOwnedItem } from "../value-entries/entries.service.ts";
import { disposalsOf } from "../valuation/disposals.service.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";
import type { AnalyzeTco, Budget, CreateBudget, CreateLifecycleCost, LifecycleCost, TcoAnalysis } from "./costs.schemas.ts";

type BudgetRow = typeof financeBudgets.$inferSelect;
type CostRow = typeof financeLifecycleCosts.$inferSelect;

const CAPITAL_KINDS = ["acquisition", "addition"] as const;
/** A TCO over a model reads every asset of it; above this it is refused (400) rather than slow. */
export const TCO_MAX_ASSETS = 500;

// ---------------------------------------------------------------- budgets

/**
 * Actual spend of the budget's scope in its period: capital spend (acquisition and
 * addition entries of the book valued in the period, a reversal counting against
 * its original) plus lifecycle costs in the book's currency incurred in the period,
 * for assets whose current category and location match the budget's (when set).
 */
async function budgetActual(ctx: RequestCtx, b: BudgetRow): Promise<z.infer<typeof Budget>["actual"]> {
  const period = (await findPeriod(ctx, b.periodId))!;
  const digits = minorUnits(b.currency);
  const scope = and(
    eq(items.ownership, "owned"),
    b.categoryId ? eq(items.categoryId, b.categoryId) : undefined,
    b.locationId ? eq(items.locationId, b.locationId) : undefined,
  );
  const capital = await db(ctx)
    .select({ side: financeValueEntries.side, amount: financeValueEntries.amount })
    .from(financeValueEntries)
    .innerJoin(items, eq(items.id, financeValueEntries.itemId))
    .where(
      and(
        eq(financeValueEntries.bookId, b.bookId),
        inArray(financeValueEntries.kind, [...CAPITAL_KINDS]),
        gte(financeValueEntries.valueDate, period.startsOn),
        lte(financeValueEntries.valueDate, period.endsOn),
        scope,
      ),
    );
  const capitalSpend = capital.reduce((a, e) => (e.side === "debit" ? a.plus(e.amount) : a.minus(e.amount)), new Dec(0));
  const costs = await db(ctx)
    .select({ amount: financeLifecycleCosts.amount })
    .from(financeLifecycleCosts)
    .innerJoin(items, eq(items.id, financeLifecycleCosts.itemId))
    .where(and(eq(financeLifecycleCosts.currency, b.currency), gte(financeLifecycleCosts.incurredOn, period.startsOn), lte(financeLifecycleCosts.incurredOn, period.endsOn), scope));
  const lifecycle = costs.reduce((a, c) => a.plus(c.amount), new Dec(0));
  const total = capitalSpend.plus(lifecycle);
  const budget = new Dec(b.amount);
  const money = (d: Dec) => ({ amount: fixed(d, digits), currency: b.currency });
  return {
    capitalSpend: money(capitalSpend),
    lifecycleCosts: money(lifecycle),
    total: money(total),
    variance: money(budget.minus(total)),
    utilisation: budget.isZero() ? null : total.div(budget).toFixed(4, Dec.ROUND_HALF_UP),
    overBudget: total.gt(budget),
    asOf: ctx.nowIso,
  };
}

async function toBudgetDto(ctx: RequestCtx, r: BudgetRow): Promise<z.infer<typeof Budget>> {
  const { currency, amount, ...rest } = r;
  return { ...rest, amount: { amount, currency }, actual: await budgetActual(ctx, r) };
}

/** One budget per book, period, category and location (409 duplicate), in the book's currency. */
export async function createBudget(ctx: RequestCtx, input: z.output<typeof CreateBudget>): Promise<z.infer<typeof Budget>> {
  return withTx(ctx, async (ctx) => {
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    const period = await findPeriod(ctx, input.periodId);
    if (!period || period.bookId !== book.id) throw invalid("/body/periodId", "no such period in this book");
    if (input.amount.currency !== book.functionalCurrency) throw invalid("/body/amount/currency", `the book keeps ${book.functionalCurrency}`);
    if (input.categoryId) await requireCategory(ctx, input.categoryId, "/body/categoryId");
    if (input.locationId) await requireLocation(ctx, input.locationId, "/body/locationId");
    const same = (
      await db(ctx)
        .select()
        .from(financeBudgets)
        .where(eq(financeBudgets.periodId, period.id))
    ).find((b) => b.categoryId === (input.categoryId ?? null) && b.locationId === (input.locationId ?? null));
    if (same) throw new AppError("duplicate", `budget ${same.name} already covers this period, category and location`, { extras: { budgetId: same.id } });
    const row: BudgetRow = {
      ...newRecordMeta(ctx),
      bookId: book.id,
      periodId: period.id,
      name: input.name,
      categoryId: input.categoryId ?? null,
      locationId: input.locationId ?? null,
      amount: input.amount.amount,
      currency: input.amount.currency,
    };
    await writer(ctx).insert(financeBudgets).values(row);
    return toBudgetDto(ctx, row);
  });
}

export async function getBudget(ctx: RequestCtx, id: string): Promise<z.infer<typeof Budget>> {
  const row = (await db(ctx).select().from(financeBudgets).where(eq(financeBudgets.id, id)))[0];
  if (!row) throw notFound("budget");
  return toBudgetDto(ctx, row);
}

// ---------------------------------------------------------------- lifecycle costs

function toCostDto(r: CostRow): z.infer<typeof LifecycleCost> {
  const { amount, currency, ...rest } = r;
  return { ...rest, amount: { amount, currency } };
}

/** Append-only: an operator-owned asset; not in the future (400). */
export async function recordLifecycleCost(ctx: RequestCtx, input: z.output<typeof CreateLifecycleCost>): Promise<z.infer<typeof LifecycleCost>> {
  if (input.incurredOn > ctx.nowIso.slice(0, 10)) throw invalid("/body/incurredOn", "must not be in the future");
  return withTx(ctx, async (ctx) => {
    await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    const row: CostRow = {
      id: ctx.deps.newId(),
      itemId: input.itemId,
      kind: input.kind,
      amount: input.amount.amount,
      currency: input.amount.currency,
      incurredOn: input.incurredOn,
      description: input.description ?? null,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(financeLifecycleCosts).values(row);
    return toCostDto(row);
  });
}

// ---------------------------------------------------------------- TCO

/** Completed work orders' stated costs of one item up to `asOfEnd` (all pages). */
async function workOrderCosts(ctx: RequestCtx, itemId: string, asOfEnd: string) {
  const out: { id: string; amount: string; currency: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await listWorkOrders(ctx, { q: undefined, status: ["completed"], itemId, limit: 200, cursor });
    for (const w of page.items) {
      const cost = w.completion?.cost;
      if (cost && w.completedAt !== null && w.completedAt <= asOfEnd) out.push({ id: w.id, ...cost });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

function monthsBetweenDates(from: string, to: string): number {
  const [fy, fm, fd] = from.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = to.split("-").map(Number) as [number, number, number];
  const m = (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
  return Math.max(0, m);
}

type TcoExcluded = z.infer<typeof TcoAnalysis>["excluded"];

/** The analysed assets: the one item, or the model's owned items (at most TCO_MAX_ASSETS). */
async function tcoItemIds(ctx: RequestCtx, input: z.output<typeof AnalyzeTco>): Promise<string[]> {
  if (input.itemId) return [(await requireOwnedItem(ctx, input.itemId, "/body/itemId")).id];
  await requireModel(ctx, input.modelId!, "/body/modelId");
  const rows = await db(ctx)
    .select({ id: items.id })
    .from(items)
    .where(and(eq(items.modelId, input.modelId!), eq(items.ownership, "owned"), visibleRows(items)))
    .orderBy(asc(items.id))
    .limit(TCO_MAX_ASSETS + 1);
  if (rows.length > TCO_MAX_ASSETS) throw invalid("/body/modelId", `the model has more than ${TCO_MAX_ASSETS} assets; analyse them one by one`);
  return rows.map((r) => r.id);
}

/** The book's net acquisition and addition entries of the item up to asOf, and the first one's date. */
async function acquisitionOf(ctx: RequestCtx, bookId: string, itemId: string, asOf: string): Promise<{ acquisition: Dec; firstDate: string | undefined }> {
  const entries = await db(ctx)
    .select({ side: financeValueEntries.side, amount: financeValueEntries.amount, valueDate: financeValueEntries.valueDate })
    .from(financeValueEntries)
    .where(and(eq(financeValueEntries.bookId, bookId), eq(financeValueEntries.itemId, itemId), inArray(financeValueEntries.kind, [...CAPITAL_KINDS]), lte(financeValueEntries.valueDate, asOf)));
  const acquisition = entries.reduce((a, e) => (e.side === "debit" ? a.plus(e.amount) : a.minus(e.amount)), new Dec(0));
  return { acquisition, firstDate: entries.map((e) => e.valueDate).sort()[0] };
}

/** The item's completed work orders' costs in the currency; those in another go to `excluded`. */
async function workOrderTotal(ctx: RequestCtx, itemId: string, currency: string, asOfEnd: string, excluded: TcoExcluded): Promise<Dec> {
  let sum = new Dec(0);
  for (const w of await workOrderCosts(ctx, itemId, asOfEnd)) {
    if (w.currency === currency) sum = sum.plus(w.amount);
    else excluded.push({ itemId, source: "work_order", id: w.id, currency: w.currency });
  }
  return sum;
}

/** The item's lifecycle costs up to asOf in the currency; those in another go to `excluded`. */
async function lifecycleTotal(ctx: RequestCtx, itemId: string, currency: string, asOf: string, excluded: TcoExcluded): Promise<Dec> {
  let sum = new Dec(0);
  const costs = await db(ctx).select().from(financeLifecycleCosts).where(and(eq(financeLifecycleCosts.itemId, itemId), lte(financeLifecycleCosts.incurredOn, asOf)));
  for (const c of costs) {
    if (c.currency === currency) sum = sum.plus(c.amount);
    else excluded.push({ itemId, source: "lifecycle_cost", id: c.id, currency: c.currency });
  }
  return sum;
}

/**
 * total = acquisition + work orders + lifecycle costs − disposal proceeds, per
 * asset and in total, in the book's currency up to `asOf`. Acquisition is the
 * book's net acquisition and addition entries; costs in another currency are
 * listed in `excluded`, never converted. Cost per month divides by the months from
 * the first acquisition entry to `asOf` (null before a full month).
 */
export async function analyzeTco(ctx: RequestCtx, input: z.output<typeof AnalyzeTco>): Promise<z.infer<typeof TcoAnalysis>> {
  if ((input.itemId === undefined) === (input.modelId === undefined)) throw invalid(input.itemId ? "/body/modelId" : "/body/itemId", "exactly one of itemId or modelId is required");
  const asOf = input.asOf ?? ctx.nowIso.slice(0, 10);
  const asOfEnd = `${asOf}T23:59:59.999Z`;
  const book = await requireBook(ctx, input.bookId, "/body/bookId");
  const currency = book.functionalCurrency;
  const digits = minorUnits(currency);
  const itemIds = await tcoItemIds(ctx, input);
  const excluded: TcoExcluded = [];
  const disposals = await disposalsOf(ctx, book.id, itemIds);
  const zero = () => new Dec(0);
  const totals = { acquisition: zero(), workOrders: zero(), lifecycleCosts: zero(), disposalProceeds: zero(), total: zero() };
  const money = (d: Dec) => ({ amount: fixed(d, digits), currency });
  const assets = [];
  for (const itemId of itemIds) {
    const { acquisition, firstDate } = await acquisitionOf(ctx, book.id, itemId, asOf);
    const workOrders = await workOrderTotal(ctx, itemId, currency, asOfEnd, excluded);
    const lifecycle = await lifecycleTotal(ctx, itemId, currency, asOf, excluded);
    const proceeds = disposals.filter((d) => d.itemId === itemId && d.valueDate <= asOf).reduce((a, d) => a.plus(d.proceeds), zero());
    const total = acquisition.plus(workOrders).plus(lifecycle).minus(proceeds);
    const ownedMonths = firstDate ? monthsBetweenDates(firstDate, asOf) : 0;
    assets.push({
      itemId,
      acquisition: money(acquisition),
      workOrders: money(workOrders),
      lifecycleCosts: money(lifecycle),
      disposalProceeds: money(proceeds),
      total: money(total),
      ownedMonths,
      costPerMonth: ownedMonths > 0 ? money(total.div(ownedMonths)) : null,
    });
    totals.acquisition = totals.acquisition.plus(acquisition);
    totals.workOrders = totals.workOrders.plus(workOrders);
    totals.lifecycleCosts = totals.lifecycleCosts.plus(lifecycle);
    totals.disposalProceeds = totals.disposalProceeds.plus(proceeds);
    totals.total = totals.total.plus(total);
  }
  return {
    bookId: book.id,
    itemId: input.itemId ?? null,
    modelId: input.modelId ?? null,
    asOf,
    currency,
    assets,
    totals: {
      acquisition: money(totals.acquisition),
      workOrders: money(totals.workOrders),
      lifecycleCosts: money(totals.lifecycleCosts),
      disposalProceeds: money(totals.disposalProceeds),
      total: money(totals.total),
    },
    excluded,
  };
}
