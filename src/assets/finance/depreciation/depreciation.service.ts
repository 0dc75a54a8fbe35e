// Depreciation profiles (one per asset and book), their schedules, the runs that
// post a period's depreciation, and prospective changes of estimate.
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import type { TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { saveVersion } from "../../../platform/db/records.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { depreciationDefaults } from "../../policies/index.ts";
import { depreciationEstimates, depreciationProfiles, depreciationRuns, type RunSkip } from "./depreciation.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { breachFigures, depreciationFloor, floorBreach, loadTimeline } from "../value-entries/carrying.ts";
import { assertBookActive, assertBookPolicyActive, findBook, requireBook, requireOpenPeriod, type BookRow, type PeriodRow } from "../books/books.service.ts";
import { appendEntry, requireOwnedItem, toEntryDto, type EntryRow } from "../value-entries/entries.service.ts";
import { disposedItemIds } from "../valuation/disposals.service.ts";
import { CONVENTIONS, Dec, addMonths, fixed, lastDayOf, monthOf, monthsBetween, segmentSchedule, type Basis, type Convention, type Method } from "./schedule.ts";
import type { ChangeEstimate, CreateDepreciationProfile, DepreciationProfile, DepreciationRun, Schedule } from "./depreciation.schemas.ts";

type ProfileRow = typeof depreciationProfiles.$inferSelect;
type EstimateRow = typeof depreciationEstimates.$inferSelect;
type ProfileDto = z.infer<typeof DepreciationProfile>;

export function toProfileDto(p: ProfileRow, estimates: EstimateRow[]): ProfileDto {
  const money = (amount: string) => ({ amount, currency: p.currency });
  return {
    id: p.id,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    createdBy: p.createdBy,
    version: p.version,
    bookId: p.bookId,
    itemId: p.itemId,
    method: p.method,
    decliningRate: p.decliningRate,
    convention: p.convention,
    cost: money(p.cost),
    residualValue: money(p.residualValue),
    usefulLifeMonths: p.usefulLifeMonths,
    startDate: p.startDate,
    postedThrough: p.postedThrough,
    componentName: p.componentName,
    replacedById: p.replacedById,
    replacedOn: p.replacedOn,
    estimates: estimates.map((e) => ({
      seq: e.seq,
      effectiveMonth: e.effectiveMonth,
      usefulLifeMonths: e.usefulLifeMonths,
      residualValue: money(e.residualValue),
      openingCarrying: money(e.openingCarrying),
      unitsPlan: e.unitsPlan ?? null,
      reason: e.reason,
      createdAt: e.createdAt,
      createdBy: e.createdBy,
    })),
  };
}

export async function loadProfile(ctx: TenantCtx, id: string): Promise<{ profile: ProfileRow; estimates: EstimateRow[] }> {
  const profile = (await db(ctx).select().from(depreciationProfiles).where(eq(depreciationProfiles.id, id)))[0];
  if (!profile) throw notFound("depreciation profile");
  const estimates = await db(ctx).select().from(depreciationEstimates).where(eq(depreciationEstimates.profileId, id)).orderBy(asc(depreciationEstimates.seq));
  return { profile, estimates };
}

/** The units plan is for units of production only, one positive-sum entry per month. */
function checkUnits(method: Method, plan: string[] | undefined, months: number, path: string): string[] | null {
  if (method !== "units_of_production") {
    if (plan !== undefined) throw invalid(path, "only for units_of_production");
    return null;
  }
  if (plan === undefined) throw invalid(path, "units_of_production needs the expected units per month");
  if (plan.length !== months) throw invalid(path, `one entry per month: ${months} expected, ${plan.length} given`);
  if (!plan.some((u) => new Dec(u).gt(0))) throw invalid(path, "the plan must have some units");
  return plan;
}

// ---------------------------------------------------------------- profiles

export async function createProfile(ctx: RequestCtx, input: z.output<typeof CreateDepreciationProfile>): Promise<ProfileDto> {
  return withTx(ctx, async (ctx) => {
    const item = await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    for (const [field, money] of [["cost", input.cost], ["residualValue", input.residualValue]] as const) {
      if (money.currency !== book.functionalCurrency) throw invalid(`/body/${field}/currency`, `the book keeps ${book.functionalCurrency}`);
    }
    if (new Dec(input.residualValue.amount).gt(input.cost.amount)) throw invalid("/body/residualValue/amount", "must not exceed the cost");
    assertBookActive(book);
    await assertBookPolicyActive(ctx, book);
    const defaults = await depreciationDefaults(ctx, item.categoryId);
    const method = input.method ?? (defaults!.method as Method);
    const life = input.usefulLifeMonths ?? defaults!.usefulLifeMonths;
    const convention = input.convention ?? defaults!.convention;
    if (!(CONVENTIONS as readonly string[]).includes(convention)) {
      throw invalid("/body/convention", `the policy's ${convention} convention is not computed here; give full_month or mid_month`);
    }
    if (method === "declining_balance") {
      if (input.decliningRate === undefined) throw invalid("/body/decliningRate", "declining_balance needs an annual rate");
      const r = new Dec(input.decliningRate);
      if (r.lte(0) || r.gt(10)) throw invalid("/body/decliningRate", "must be above 0 and at most 10");
    } else if (input.decliningRate !== undefined) throw invalid("/body/decliningRate", "only for declining_balance");
    const units = checkUnits(method, input.unitsPlan, life, "/body/unitsPlan");
    const componentName = input.componentName ?? null;
    const sameSlot = componentName === null ? isNull(depreciationProfiles.componentName) : and(eq(depreciationProfiles.componentName, componentName), isNull(depreciationProfiles.replacedOn));
    const taken = (await db(ctx).select({ id: depreciationProfiles.id }).from(depreciationProfiles).where(and(eq(depreciationProfiles.bookId, book.id), eq(depreciationProfiles.itemId, item.id), sameSlot)))[0];
    if (taken) {
      const what = componentName === null ? "depreciation profile" : `component "${componentName}" in profile`;
      throw new AppError("duplicate", `the item already has ${what} ${taken.id} in this book`);
    }
    const profile: ProfileRow = {
      ...newRecordMeta(ctx),
      bookId: book.id,
      itemId: item.id,
      method,
      decliningRate: input.decliningRate ?? null,
      convention: convention as Convention,
      currency: book.functionalCurrency,
      cost: input.cost.amount,
      residualValue: input.residualValue.amount,
      usefulLifeMonths: life,
      startDate: input.startDate,
      postedThrough: null,
      componentName,
      replacedById: null,
      replacedOn: null,
    };
    await writer(ctx).insert(depreciationProfiles).values(profile);
    const estimate: EstimateRow = {
      id: ctx.deps.newId(),
      profileId: profile.id,
      seq: 1,
      effectiveMonth: monthOf(input.startDate),
      usefulLifeMonths: life,
      residualValue: input.residualValue.amount,
      openingCarrying: input.cost.amount,
      unitsPlan: units,
      reason: null,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(depreciationEstimates).values(estimate);
    return toProfileDto(profile, [estimate]);
  });
}

// ---------------------------------------------------------------- schedule

interface Row {
  month: string;
  amount: InstanceType<typeof Dec>;
  accumulated: InstanceType<typeof Dec>;
  carrying: InstanceType<typeof Dec>;
  basis: Basis;
  estimateSeq: number;
}

/** The whole schedule: each estimate governs from its effective month until the next one's. */
export function scheduleRows(profile: ProfileRow, estimates: EstimateRow[]): Row[] {
  const digits = minorUnits(profile.currency);
  const startMonth = monthOf(profile.startDate);
  const rows: Row[] = [];
  let accumulated = new Dec(0);
  estimates.forEach((est, i) => {
    const elapsed = monthsBetween(startMonth, est.effectiveMonth);
    const until = estimates[i + 1]?.effectiveMonth;
    const rate =
      profile.method === "declining_balance"
        ? new Dec(profile.decliningRate!)
        : profile.method === "double_declining_balance"
          ? new Dec(24).div(est.usefulLifeMonths)
          : undefined;
    const opening = new Dec(est.openingCarrying);
    const segment = segmentSchedule(
      {
        method: profile.method,
        opening,
        residual: new Dec(est.residualValue),
        months: est.usefulLifeMonths - elapsed,
        midMonth: i === 0 && profile.convention === "mid_month",
        annualRate: rate,
        units: est.unitsPlan?.map((u) => new Dec(u)),
      },
      digits,
    );
    let within = new Dec(0);
    segment.forEach((r, k) => {
      const month = addMonths(est.effectiveMonth, k);
      if (until !== undefined && month >= until) return;
      within = within.plus(r.amount);
      accumulated = accumulated.plus(r.amount);
      rows.push({ month, amount: r.amount, accumulated, carrying: opening.minus(within), basis: r.basis, estimateSeq: est.seq });
    });
  });
  return rows;
}

export async function profileSchedule(ctx: RequestCtx, id: string): Promise<z.infer<typeof Schedule>> {
  const { profile, estimates } = await loadProfile(ctx, id);
  const digits = minorUnits(profile.currency);
  const rows = scheduleRows(profile, estimates);
  const total = rows.reduce((a, r) => a.plus(r.amount), new Dec(0));
  return {
    profileId: profile.id,
    method: profile.method,
    convention: profile.convention,
    currency: profile.currency,
    cost: profile.cost,
    residualValue: profile.residualValue,
    total: fixed(total, digits),
    rows: rows.map((r) => ({
      month: r.month,
      amount: fixed(r.amount, digits),
      accumulated: fixed(r.accumulated, digits),
      carryingAmount: fixed(r.carrying, digits),
      basis: r.basis,
      estimateSeq: r.estimateSeq,
      posted: profile.postedThrough !== null && r.month <= profile.postedThrough,
    })),
  };
}

// ---------------------------------------------------------------- runs

type RunDto = z.infer<typeof DepreciationRun>;

async function runDto(ctx: RequestCtx, run: typeof depreciationRuns.$inferSelect): Promise<RunDto> {
  const entries = run.entryIds.length
    ? await db(ctx).select().from(financeValueEntries).where(inArray(financeValueEntries.id, run.entryIds)).orderBy(asc(financeValueEntries.itemId), asc(financeValueEntries.scheduleMonth))
    : [];
  return {
    id: run.id,
    bookId: run.bookId,
    periodId: run.periodId,
    total: { amount: run.total, currency: run.currency },
    entries: entries.map(toEntryDto),
    skipped: run.skipped,
    createdAt: run.createdAt,
    createdBy: run.createdBy,
  };
}

/**
 * Posts the period's depreciation for the book: for every profile, each schedule
 * month not yet posted whose first day is on or before the period's end (so months
 * of earlier periods a profile missed are caught up here). Once per book and period:
 * a second call answers the first run.
 *
 * A month whose charge would take the asset's carrying amount in the book (from its
 * entries) below its floor — the residual values of its live profiles — is not posted:
 * the profile stops there and is reported in `skipped` (an asset with no acquisition in
 * the book, or one impaired towards its residual). Its months stay due for later runs.
 */
export async function runDepreciation(ctx: RequestCtx, bookId: string, periodId: string): Promise<RunDto> {
  return withTx(ctx, async (ctx) => {
    const book = await findBook(ctx, bookId);
    if (!book) throw notFound("book");
    const done = (await db(ctx).select().from(depreciationRuns).where(and(eq(depreciationRuns.bookId, book.id), eq(depreciationRuns.periodId, periodId))))[0];
    if (done) return runDto(ctx, done);
    assertBookActive(book);
    await assertBookPolicyActive(ctx, book);
    const period = await requireOpenPeriod(ctx, book, periodId, "/body/periodId");
    const digits = minorUnits(book.functionalCurrency);
    const profiles = await db(ctx).select().from(depreciationProfiles).where(eq(depreciationProfiles.bookId, book.id)).orderBy(asc(depreciationProfiles.id));
    const posted: EntryRow[] = [];
    const skipped: RunSkip[] = [];
    let total = new Dec(0);
    // An asset whose disposal the book has completed is derecognised: nothing more depreciates.
    const disposed = await disposedItemIds(ctx, book.id);
    for (const profile of profiles) {
      if (disposed.has(profile.itemId)) continue;
      // A replaced component was derecognised: its months not yet posted are never posted.
      if (profile.replacedOn !== null) continue;
      total = total.plus(await postDueMonths(ctx, book, period, profile, posted, skipped));
    }
    const run = {
      id: ctx.deps.newId(),
      bookId: book.id,
      periodId: period.id,
      entryIds: posted.map((e) => e.id),
      skipped,
      total: fixed(total, digits),
      currency: book.functionalCurrency,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(depreciationRuns).values(run);
    return runDto(ctx, run);
  });
}

/**
 * Posts the profile's months due by the period's end, in order, until one would
 * breach the floor (reported in `skipped`); moves its postedThrough. Returns the
 * amount posted.
 */
async function postDueMonths(ctx: TenantCtx, book: BookRow, period: PeriodRow, profile: ProfileRow, posted: EntryRow[], skipped: RunSkip[]): Promise<Dec> {
  const digits = minorUnits(book.functionalCurrency);
  const estimates = await db(ctx).select().from(depreciationEstimates).where(eq(depreciationEstimates.profileId, profile.id)).orderBy(asc(depreciationEstimates.seq));
  const lastMonth = monthOf(period.endsOn);
  const due = scheduleRows(profile, estimates).filter((r) => (profile.postedThrough === null || r.month > profile.postedThrough) && r.month <= lastMonth);
  let total = new Dec(0);
  if (due.length === 0) return total;
  // The same question appendEntry asks, answered ahead so the run skips instead of failing.
  const timeline = await loadTimeline(ctx, book.id, profile.itemId);
  const floor = await depreciationFloor(ctx, book.id, profile.itemId);
  let through: string | null = null;
  for (const r of due) {
    if (r.amount.isZero()) {
      through = r.month;
      continue;
    }
    const end = lastDayOf(r.month);
    const valueDate = end < period.startsOn ? period.startsOn : end > period.endsOn ? period.endsOn : end;
    const amount = new Dec(fixed(r.amount, digits));
    const breach = floorBreach(timeline, { bookId: book.id, itemId: profile.itemId, currency: book.functionalCurrency, valueDate, amount, floor, floorBasis: "residual_value" });
    if (breach) {
      skipped.push({ itemId: profile.itemId, profileId: profile.id, month: r.month, code: "carrying_amount_below_floor", ...breachFigures(breach) });
      break;
    }
    posted.push(
      await appendEntry(ctx, {
        bookId: book.id,
        periodId: period.id,
        itemId: profile.itemId,
        kind: "depreciation",
        side: "credit",
        amount: fixed(amount, digits),
        currency: book.functionalCurrency,
        valueDate,
        description: `depreciation ${r.month}`,
        policyId: book.policyId,
        workflowCaseId: null,
        profileId: profile.id,
        scheduleMonth: r.month,
        reversesEntryId: null,
        reason: null,
      }),
    );
    timeline.add(valueDate, amount.neg());
    total = total.plus(amount);
    through = r.month;
  }
  if (through !== null) await saveVersion(writer(ctx), depreciationProfiles, profile, { postedThrough: through }, ctx.nowIso);
  return total;
}

/** Whether the book's depreciation for the period has been run (a close needs it). */
export async function depreciationHasRun(ctx: RequestCtx, bookId: string, periodId: string): Promise<boolean> {
  return (await db(ctx).select({ id: depreciationRuns.id }).from(depreciationRuns).where(and(eq(depreciationRuns.bookId, bookId), eq(depreciationRuns.periodId, periodId)))).length > 0;
}

// ---------------------------------------------------------------- change of estimate

/**
 * A new useful life and/or residual value, applied prospectively: from the first
 * month not yet posted, `carrying − residual` is spread over the remaining months,
 * where carrying is the cost less the depreciation posted and the net impairments
 * of the asset in the book. Posted months and every earlier estimate are kept.
 */
export async function changeEstimate(ctx: RequestCtx, id: string, input: z.output<typeof ChangeEstimate>): Promise<ProfileDto> {
  if (input.usefulLifeMonths === undefined && input.residualValue === undefined) throw invalid("/body/usefulLifeMonths", "give a new useful life, residual value or both");
  return withTx(ctx, async (ctx) => {
    const { profile, estimates } = await loadProfile(ctx, id);
    assertVersion("depreciation profile", profile, input.expectedVersion);
    if (profile.replacedOn !== null) throw new AppError("state_conflict", `the component was replaced on ${profile.replacedOn} (profile ${profile.replacedById}); it depreciates no more`);
    const book = (await findBook(ctx, profile.bookId))!;
    assertBookActive(book);
    if (input.residualValue && input.residualValue.currency !== profile.currency) throw invalid("/body/residualValue/currency", `the profile is in ${profile.currency}`);
    const rows = scheduleRows(profile, estimates);
    const effectiveMonth = profile.postedThrough ? addMonths(profile.postedThrough, 1) : monthOf(profile.startDate);
    if (rows.length === 0 || rows[rows.length - 1]!.month < effectiveMonth) throw new AppError("state_conflict", "the asset is fully depreciated under its current estimate");
    const life = input.usefulLifeMonths ?? profile.usefulLifeMonths;
    const residual = input.residualValue?.amount ?? profile.residualValue;
    const remaining = life - monthsBetween(monthOf(profile.startDate), effectiveMonth);
    if (remaining < 1) throw invalid("/body/usefulLifeMonths", `the life must extend past ${effectiveMonth}, the first month not yet posted`);
    const entries = await db(ctx)
      .select({ kind: financeValueEntries.kind, side: financeValueEntries.side, amount: financeValueEntries.amount, profileId: financeValueEntries.profileId })
      .from(financeValueEntries)
      .where(and(eq(financeValueEntries.bookId, profile.bookId), eq(financeValueEntries.itemId, profile.itemId), inArray(financeValueEntries.kind, ["depreciation", "impairment"])));
    let carrying = new Dec(profile.cost);
    for (const e of entries) {
      if (e.kind === "depreciation" && e.profileId !== profile.id) continue;
      // Impairments are of the asset, so they reduce its whole-asset profile, not a component's.
      if (e.kind === "impairment" && profile.componentName !== null) continue;
      carrying = e.side === "credit" ? carrying.minus(e.amount) : carrying.plus(e.amount);
    }
    if (new Dec(residual).gt(carrying)) throw invalid("/body/residualValue/amount", `must not exceed the carrying amount ${fixed(carrying, minorUnits(profile.currency))}`);
    const units = checkUnits(profile.method, input.unitsPlan, remaining, "/body/unitsPlan");
    const digits = minorUnits(profile.currency);
    const estimate: EstimateRow = {
      id: ctx.deps.newId(),
      profileId: profile.id,
      seq: estimates[estimates.length - 1]!.seq + 1,
      effectiveMonth,
      usefulLifeMonths: life,
      residualValue: residual,
      openingCarrying: fixed(carrying, digits),
      unitsPlan: units,
      reason: input.reason,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    // An estimate effective from the same month as the last one replaces it for the schedule (both stay in the history).
    await writer(ctx).insert(depreciationEstimates).values(estimate);
    const next = await saveVersion(writer(ctx), depreciationProfiles, profile, { usefulLifeMonths: life, residualValue: residual }, ctx.nowIso);
    const saved = next === profile ? await saveVersion(writer(ctx), depreciationProfiles, profile, { updatedAt: ctx.nowIso } as Partial<ProfileRow>, ctx.nowIso) : next;
    return toProfileDto(saved, [...estimates, estimate]);
  });
}

