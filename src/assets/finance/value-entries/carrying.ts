// The one carrying-amount rule of finance. An asset's carrying amount in a book on a
// date is Σ(debit − credit) of its value entries valued on or before that date, and no
// credit may take it below its floor — zero, or for depreciation the residual values of
// the asset's live profiles in the book — on the credit's value date or on any later
// date the book already holds entries for (a credit lowers every later balance too).
// Every posting goes through `appendEntry`, which asks `assertCarryingFloor`; runs and
// proposals ask the same question first (`floorBreach`) to skip or refuse early.
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import { AppError } from "../../../platform/errors/app-error.ts";
import { db } from "../../../platform/db/transactions.ts";
import type { TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { depreciationProfiles } from "../depreciation/depreciation.tables.ts";
import { financeValueEntries } from "./entries.tables.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";

/** What the floor is made of: zero, or the residual values the depreciation methods stop at. */
export type FloorBasis = "zero" | "residual_value";

type EntryFacts = { valueDate: string; side: "debit" | "credit"; amount: string };

/** An asset's entries in one book as a running balance per value date. */
export class CarryingTimeline {
  /** Distinct value dates, ascending, with the net change on each. */
  private readonly days: { date: string; net: Dec }[] = [];

  constructor(entries: EntryFacts[]) {
    for (const e of entries) this.add(e.valueDate, e.side === "debit" ? new Dec(e.amount) : new Dec(e.amount).neg());
  }

  /** Records a posting (positive raises the carrying amount). */
  add(date: string, signed: Dec): void {
    const at = this.days.findIndex((d) => d.date >= date);
    if (at === -1) this.days.push({ date, net: signed });
    else if (this.days[at]!.date === date) this.days[at]!.net = this.days[at]!.net.plus(signed);
    else this.days.splice(at, 0, { date, net: signed });
  }

  /** The carrying amount at the end of `date`. */
  at(date: string): Dec {
    return this.days.filter((d) => d.date <= date).reduce((a, d) => a.plus(d.net), new Dec(0));
  }

  /** The lowest carrying amount on `date` or any later value date, and the first date it is reached. */
  lowestFrom(date: string): { amount: Dec; on: string } {
    let running = this.at(date);
    let lowest = { amount: running, on: date };
    for (const d of this.days) {
      if (d.date <= date) continue;
      running = running.plus(d.net);
      if (running.lt(lowest.amount)) lowest = { amount: running, on: d.date };
    }
    return lowest;
  }
}

export async function loadTimeline(ctx: TenantCtx, bookId: string, itemId: string): Promise<CarryingTimeline> {
  const rows = await db(ctx)
    .select({ valueDate: financeValueEntries.valueDate, side: financeValueEntries.side, amount: financeValueEntries.amount })
    .from(financeValueEntries)
    .where(and(eq(financeValueEntries.bookId, bookId), eq(financeValueEntries.itemId, itemId)))
    .orderBy(asc(financeValueEntries.valueDate));
  return new CarryingTimeline(rows);
}

/** Σ(debit − credit) of the item's entries in the book valued on or before `asOf`. */
export async function carryingAmount(ctx: TenantCtx, bookId: string, itemId: string, asOf: string): Promise<Dec> {
  const rows = await db(ctx)
    .select({ side: financeValueEntries.side, amount: financeValueEntries.amount })
    .from(financeValueEntries)
    .where(and(eq(financeValueEntries.bookId, bookId), eq(financeValueEntries.itemId, itemId), lte(financeValueEntries.valueDate, asOf)));
  return rows.reduce((a, e) => (e.side === "debit" ? a.plus(e.amount) : a.minus(e.amount)), new Dec(0));
}

/**
 * The floor depreciation stops at: the residual values of the asset's live (not replaced)
 * profiles in the book, whole asset and components (each schedule ends on its residual).
 */
export async function depreciationFloor(ctx: TenantCtx, bookId: string, itemId: string): Promise<Dec> {
  const rows = await db(ctx)
    .select({ residualValue: depreciationProfiles.residualValue })
    .from(depreciationProfiles)
    .where(and(eq(depreciationProfiles.bookId, bookId), eq(depreciationProfiles.itemId, itemId), isNull(depreciationProfiles.replacedOn)));
  return rows.reduce((a, r) => a.plus(r.residualValue), new Dec(0));
}

/** A credit that would take the carrying amount below its floor, with the figures that show it. */
export interface FloorBreach {
  bookId: string;
  itemId: string;
  currency: string;
  valueDate: string;
  /** The credit that would apply. */
  amount: Dec;
  /** The lowest carrying amount from valueDate on, before the credit, and the date it is reached. */
  carrying: Dec;
  carryingOn: string;
  floor: Dec;
  floorBasis: FloorBasis;
}

/** Whether crediting `amount` on `valueDate` leaves every balance from then on at or above `floor` (null) or not. */
export function floorBreach(
  timeline: CarryingTimeline,
  c: { bookId: string; itemId: string; currency: string; valueDate: string; amount: Dec; floor: Dec; floorBasis: FloorBasis },
): FloorBreach | null {
  const lowest = timeline.lowestFrom(c.valueDate);
  if (lowest.amount.minus(c.amount).gte(c.floor)) return null;
  return { ...c, carrying: lowest.amount, carryingOn: lowest.on };
}

/** The figures of a breach as the API shows them (problem extras, skipped run lines). */
export function breachFigures(b: FloorBreach) {
  const digits = minorUnits(b.currency);
  const money = (d: Dec) => ({ amount: fixed(d, digits), currency: b.currency });
  return {
    amount: money(b.amount),
    carryingAmount: money(b.carrying),
    carryingAmountOn: b.carryingOn,
    floor: money(b.floor),
  };
}

/** 409 carrying_amount_below_floor naming the rule, the asset, the book and the figures. */
export function belowFloorError(b: FloorBreach, what: string): AppError {
  const f = breachFigures(b);
  const floorText = b.floorBasis === "zero" ? "zero" : `the residual value ${f.floor.amount}`;
  return new AppError(
    "carrying_amount_below_floor",
    `${what} of ${f.amount.amount} ${b.currency} on ${b.valueDate} would take the carrying amount of item ${b.itemId} in book ${b.bookId} ` +
      `from ${f.carryingAmount.amount} (on ${b.carryingOn}) to ${fixed(b.carrying.minus(b.amount), minorUnits(b.currency))}, below ${floorText}; a carrying amount never goes below it`,
    { extras: { bookId: b.bookId, itemId: b.itemId, valueDate: b.valueDate, floorBasis: b.floorBasis, ...f } },
  );
}

/** The floor a credit of this kind must respect: residual values for depreciation, zero for everything else. */
export async function floorFor(ctx: TenantCtx, bookId: string, itemId: string, kind: string): Promise<{ floor: Dec; floorBasis: FloorBasis }> {
  return kind === "depreciation" ? { floor: await depreciationFloor(ctx, bookId, itemId), floorBasis: "residual_value" } : { floor: new Dec(0), floorBasis: "zero" };
}

/** Throws 409 carrying_amount_below_floor when this credit would break the rule (a debit never does). */
export async function assertCarryingFloor(
  ctx: TenantCtx,
  e: { bookId: string; itemId: string; kind: string; side: "debit" | "credit"; amount: string; currency: string; valueDate: string },
  what: string,
): Promise<void> {
  if (e.side !== "credit") return;
  const timeline = await loadTimeline(ctx, e.bookId, e.itemId);
  const breach = floorBreach(timeline, { bookId: e.bookId, itemId: e.itemId, currency: e.currency, valueDate: e.valueDate, amount: new Dec(e.amount), ...(await floorFor(ctx, e.bookId, e.itemId, e.kind)) });
  if (breach) throw belowFloorError(breach, what);
}
