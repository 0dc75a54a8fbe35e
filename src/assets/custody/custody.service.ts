// Custody: reservations, checkouts and their history. A reservation is a checkout
// record in state `reserved`; starting it turns the same record `checked_out`.
// Every command runs in one write transaction (under the partner's write lock, so
// overlap checks and writes cannot interleave), writes a checkout_events row (the
// checkout's own history) and appends the step to the item's movement chronology.
import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, ne, notExists, or, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate } from "../../platform/paging/paging.ts";
import { saveVersion } from "../../platform/db/records.ts";
import { appendEvent, historyOf, toEventDto } from "../../platform/db/history.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { activeLocationExists } from "../locations/index.ts";
import { activePartyExists } from "../parties/index.ts";
import { itemBlocks } from "../kernel/kernel.tables.ts";
import type { ItemRow } from "../kernel/index.ts";
import { changeItem, findItem, requireItem } from "../kernel/index.ts";
import { clearBlock, hasBlock, setBlock } from "../kernel/index.ts";
import { moveContents } from "../kernel/index.ts";
import { recordMovement } from "../kernel/index.ts";
import { activePolicy, policyViolation } from "../policies/index.ts";
import { checkouts, checkoutEvents } from "./custody.tables.ts";
import { assertCheckoutMove, isOverdue, requireState } from "./custody.states.ts";
import type {
  ListCheckoutsQuery,
  CreateCheckout,
  CreateReservation,
  CancelReservation,
  AcknowledgeCheckout,
  ExtendCheckout,
  TransferCheckout,
  ReturnCheckout,
} from "./custody.schemas.ts";

export type CheckoutRow = typeof checkouts.$inferSelect;
export interface HolderRef {
  kind: "user" | "party" | "location";
  id: string;
}

/** Availabilities that keep an active item from leaving on a checkout. */
const BLOCKING_AVAILABILITY = new Set(["in_transit", "on_hold", "in_maintenance"]);
/** Lifecycles in which an item may be reserved (it may be activated before the window). */
const RESERVABLE = new Set(["planned", "active", "in_maintenance"]);

export function toCheckoutDto(r: CheckoutRow, nowIso: string) {
  return {
    id: r.id,
    itemId: r.itemId,
    state: r.state,
    holder: { kind: r.holderKind, id: r.holderId },
    startsAt: r.startsAt,
    endsAt: r.endsAt,
    dueAt: r.dueAt,
    checkedOutAt: r.checkedOutAt,
    returnedAt: r.returnedAt,
    acknowledgedAt: r.acknowledgedAt,
    acknowledgedBy: r.acknowledgedBy,
    note: r.note,
    returnCondition: r.returnCondition as ItemRow["condition"] | null,
    returnLocationId: r.returnLocationId,
    overdue: isOverdue(r, nowIso),
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
export type CheckoutDto = ReturnType<typeof toCheckoutDto>;

// ---------------------------------------------------------------- reads

export async function listCheckouts(ctx: RequestCtx, q: z.output<typeof ListCheckoutsQuery>) {
  const filters = new FilterSet()
    .add("state", q.state, (v) => inArray(checkouts.state, v))
    .add("itemId", q.itemId, (v) => eq(checkouts.itemId, v))
    .add("holderKind", q.holderKind, (v) => inArray(checkouts.holderKind, v))
    .add("holderId", q.holderId, (v) => eq(checkouts.holderId, v))
    // Both branches are led by `state` so checkouts_due_idx / checkouts_state_page_idx serve them.
    .add("overdue", q.overdue, (v) =>
      v
        ? and(eq(checkouts.state, "checked_out"), lt(checkouts.dueAt, ctx.nowIso))
        : or(
            inArray(checkouts.state, ["reserved", "returned", "cancelled"]),
            and(eq(checkouts.state, "checked_out"), gte(checkouts.dueAt, ctx.nowIso)),
          ),
    );
  return listByUpdate(ctx, checkouts, q, filters, (r) => toCheckoutDto(r, ctx.nowIso));
}

export async function getCheckout(ctx: RequestCtx, id: string) {
  // One snapshot: the record and its history agree.
  const [rows, events] = await readSnapshot(ctx, (q) => [
    q.select().from(checkouts).where(eq(checkouts.id, id)),
    historyOf(q, checkoutEvents, id),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("checkout");
  return { ...toCheckoutDto(row, ctx.nowIso), events: events.map((e) => toEventDto(e)) };
}

// ---------------------------------------------------------------- shared checks

export const RESERVATION_START_GRACE_MS = 5 * 60_000;

/** A new checkout record (a reservation when state is `reserved`), authored by the caller now. */
function newCheckoutRow(
  ctx: RequestCtx,
  f: Pick<CheckoutRow, "itemId" | "state" | "startsAt" | "endsAt" | "dueAt" | "checkedOutAt" | "note"> & { holder: { kind: CheckoutRow["holderKind"]; id: string } },
): CheckoutRow {
  return {
    ...newRecordMeta(ctx),
    itemId: f.itemId,
    state: f.state,
    holderKind: f.holder.kind,
    holderId: f.holder.id,
    startsAt: f.startsAt,
    endsAt: f.endsAt,
    dueAt: f.dueAt,
    checkedOutAt: f.checkedOutAt,
    returnedAt: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    note: f.note,
    returnCondition: null,
    returnLocationId: null,
  };
}

/** A holder must be an active member, an active party or an active location; else 400. */
async function assertHolder(ctx: TenantCtx, holder: HolderRef, path = "/body/holder/id"): Promise<void> {
  let found: boolean;
  if (holder.kind === "user") {
    const q = db(ctx);
    found = (await q.select({ id: memberships.id }).from(memberships).where(and(eq(memberships.userId, holder.id), eq(memberships.status, "active")))).length > 0;
  } else if (holder.kind === "party") {
    found = await activePartyExists(ctx, holder.id);
  } else {
    found = await activeLocationExists(ctx, holder.id);
  }
  if (!found) throw invalid(path, `unknown or inactive ${holder.kind === "user" ? "member" : holder.kind}`);
}

async function loadCheckout(ctx: TenantCtx, id: string, what = "checkout"): Promise<CheckoutRow> {
  const row = (await db(ctx).select().from(checkouts).where(eq(checkouts.id, id)))[0];
  if (!row) throw notFound(what);
  return row;
}


function sameHolder(row: CheckoutRow, holder: HolderRef): boolean {
  return row.holderKind === holder.kind && row.holderId === holder.id;
}

/** Open reservations of the item whose window [startsAt, endsAt) overlaps [from, to). */
async function overlappingReservations(ctx: TenantCtx, itemId: string, from: string, to: string, exceptId?: string): Promise<CheckoutRow[]> {
  return db(ctx)
    .select()
    .from(checkouts)
    .where(
      and(
        eq(checkouts.itemId, itemId),
        eq(checkouts.state, "reserved"),
        lt(checkouts.startsAt, to),
        gt(checkouts.endsAt, from),
        exceptId ? ne(checkouts.id, exceptId) : undefined,
      ),
    )
    .orderBy(checkouts.startsAt);
}

async function activeCheckout(ctx: TenantCtx, itemId: string): Promise<CheckoutRow | undefined> {
  return (await db(ctx).select().from(checkouts).where(and(eq(checkouts.itemId, itemId), eq(checkouts.state, "checked_out"))))[0];
}

function reservedConflict(r: CheckoutRow): AppError {
  return new AppError("state_conflict", `the item is reserved from ${r.startsAt} to ${r.endsAt} (reservation ${r.id})`, {
    extras: { conflictingCheckoutId: r.id },
  });
}

/** A command's change of a checkout: its next version, even when only its history changes (an escalation). */
const saveCheckout = (ctx: TenantCtx, row: CheckoutRow, change: Partial<CheckoutRow>) =>
  saveVersion(writer(ctx), checkouts, row, change, ctx.nowIso, { evenIfEmpty: true });

function holderOf(row: CheckoutRow): HolderRef {
  return { kind: row.holderKind, id: row.holderId };
}

/** Where the item is now: the business location of custody steps that do not move it. */
async function itemLocation(ctx: TenantCtx, itemId: string): Promise<string | null> {
  return (await findItem(ctx, itemId))?.locationId ?? null;
}

/** A reservation blocks its item (`reserved`) from the start of its window until it ends, starts or is cancelled. */
async function holdIfStarted(ctx: TenantCtx, r: CheckoutRow): Promise<void> {
  if (r.state === "reserved" && r.startsAt <= ctx.nowIso && (r.endsAt === null || r.endsAt > ctx.nowIso)) await setBlock(ctx, r.itemId, "reserved", r.id);
}

const DAY_MS = 86_400_000;

/**
 * The active custody policy's limits (none when no custody policy is active):
 * a checkout may run at most maxCheckoutDays from its checkout time to its dueAt.
 * `fromDueAt` (an extension): shortening, or keeping a dueAt that was already
 * beyond the limit, stays allowed; only a later dueAt beyond it is refused.
 */
async function assertCustodyPolicy(ctx: TenantCtx, checkedOutAt: string, dueAt: string, fromDueAt?: string | null): Promise<void> {
  const policy = await activePolicy(ctx, "custody");
  if (!policy) return;
  const limit = new Date(new Date(checkedOutAt).getTime() + policy.document.maxCheckoutDays * DAY_MS).toISOString();
  if (dueAt > limit && (fromDueAt === undefined || fromDueAt === null || dueAt > fromDueAt)) {
    throw policyViolation(
      policy,
      "custody",
      `a checkout may run at most ${policy.document.maxCheckoutDays} days (due no later than ${limit}); ${dueAt} is beyond that`,
    );
  }
}

/** acknowledgementRequired: a user holder acknowledges a checkout before it is extended or handed on. */
async function assertAcknowledgedIfRequired(ctx: TenantCtx, row: CheckoutRow, action: string): Promise<void> {
  if (row.holderKind !== "user" || row.acknowledgedAt !== null) return;
  const policy = await activePolicy(ctx, "custody");
  if (policy?.document.acknowledgementRequired) {
    throw policyViolation(policy, "custody", `the holder must acknowledge the checkout before it can be ${action}`);
  }
}

// ---------------------------------------------------------------- commands

/**
 * Checks an item out, or starts a reservation (`reservationId`): the reservation
 * record itself becomes the checkout. The holder must be the reservation's holder.
 */
export async function createCheckout(ctx: RequestCtx, input: z.output<typeof CreateCheckout>): Promise<CheckoutDto> {
  if (input.dueAt <= ctx.nowIso) throw invalid("/body/dueAt", "must be in the future");
  if (input.expectedVersion !== undefined && input.reservationId === undefined) {
    throw invalid("/body/expectedVersion", "only applies with reservationId");
  }
  return withTx(ctx, async (ctx) => {
    const item = await requireItem(ctx, input.itemId, "/body/itemId");
    await assertHolder(ctx, input.holder);
    let reservation: CheckoutRow | undefined;
    if (input.reservationId !== undefined) {
      reservation = (await db(ctx).select().from(checkouts).where(eq(checkouts.id, input.reservationId)))[0];
      if (!reservation) throw invalid("/body/reservationId", "unknown reservation");
      if (reservation.itemId !== item.id) throw invalid("/body/reservationId", "the reservation is for another item");
      assertVersion("reservation", reservation, input.expectedVersion);
      assertCheckoutMove(reservation.state, "checked_out", "start");
      if (reservation.endsAt !== null && reservation.endsAt <= ctx.nowIso) {
        throw new AppError("state_conflict", `the reservation's window ended at ${reservation.endsAt}`);
      }
      // Within its window only (the same clock-skew grace as for creating one).
      if (reservation.startsAt > new Date(ctx.now.getTime() + RESERVATION_START_GRACE_MS).toISOString()) {
        throw new AppError("state_conflict", `the reservation's window starts at ${reservation.startsAt}`);
      }
      if (!sameHolder(reservation, input.holder)) {
        throw new AppError("state_conflict", "the holder must be the reservation's holder (transfer after checkout to hand it on)");
      }
    }
    if (item.lifecycle !== "active") throw new AppError("state_conflict", `a ${item.lifecycle} item cannot be checked out`);
    const current = await activeCheckout(ctx, item.id);
    if (current) throw new AppError("state_conflict", `the item is already checked out (checkout ${current.id})`, { extras: { conflictingCheckoutId: current.id } });
    if (BLOCKING_AVAILABILITY.has(item.availability)) throw new AppError("state_conflict", `the item is ${item.availability}`);
    // A packed item travels with its container; it must be unpacked (moved out) before it leaves alone.
    if (item.containerId !== null) throw new AppError("state_conflict", `the item is packed in container ${item.containerId}; move it out first`);
    if (await hasBlock(ctx, item.id, "packed")) throw new AppError("state_conflict", "the item is packed in a shipment container; unpack it first");
    const clash = (await overlappingReservations(ctx, item.id, ctx.nowIso, input.dueAt, reservation?.id))[0];
    if (clash) throw reservedConflict(clash);
    await assertCustodyPolicy(ctx, ctx.nowIso, input.dueAt);

    let row: CheckoutRow;
    if (reservation) {
      row = await saveCheckout(ctx, reservation, {
        state: "checked_out",
        dueAt: input.dueAt,
        checkedOutAt: ctx.nowIso,
        note: input.note ?? reservation.note,
      });
    } else {
      row = newCheckoutRow(ctx, {
        itemId: item.id,
        state: "checked_out",
        holder: input.holder,
        startsAt: ctx.nowIso,
        endsAt: null,
        dueAt: input.dueAt,
        checkedOutAt: ctx.nowIso,
        note: input.note ?? null,
      });
      await writer(ctx).insert(checkouts).values(row);
    }
    await appendEvent(ctx, checkoutEvents, row.id, "checked_out", null, { dueAt: input.dueAt, holder: input.holder, reservationId: reservation?.id ?? null });
    await recordMovement(ctx, {
      itemId: item.id,
      kind: "checked_out",
      bizLocationId: item.locationId,
      holder: input.holder,
      checkoutId: row.id,
      data: { dueAt: input.dueAt },
    });
    if (reservation) await clearBlock(ctx, item.id, "reserved", reservation.id);
    await setBlock(ctx, item.id, "checked_out", row.id);
    return toCheckoutDto(row, ctx.nowIso);
  });
}

/**
 * Reserves an item for [startsAt, endsAt). Overlapping another open reservation,
 * or the active checkout's [checkedOutAt, max(dueAt, now)), is 409.
 */
export async function createReservation(ctx: RequestCtx, input: z.output<typeof CreateReservation>): Promise<CheckoutDto> {
  // A reservation is a future window; a few minutes of grace absorb client clock skew.
  const earliestStart = new Date(ctx.now.getTime() - RESERVATION_START_GRACE_MS).toISOString();
  if (input.startsAt < earliestStart) throw invalid("/body/startsAt", "must not be in the past");
  if (input.endsAt <= input.startsAt) throw invalid("/body/endsAt", "must be after startsAt");
  if (input.endsAt <= ctx.nowIso) throw invalid("/body/endsAt", "must be in the future");
  return withTx(ctx, async (ctx) => {
    const item = await requireItem(ctx, input.itemId, "/body/itemId");
    await assertHolder(ctx, input.holder);
    if (!RESERVABLE.has(item.lifecycle)) throw new AppError("state_conflict", `a ${item.lifecycle} item cannot be reserved`);
    const clash = (await overlappingReservations(ctx, item.id, input.startsAt, input.endsAt))[0];
    if (clash) throw reservedConflict(clash);
    const current = await activeCheckout(ctx, item.id);
    if (current) {
      const busyUntil = current.dueAt !== null && current.dueAt > ctx.nowIso ? current.dueAt : ctx.nowIso;
      const busyFrom = current.checkedOutAt ?? current.startsAt;
      if (busyFrom < input.endsAt && busyUntil > input.startsAt) {
        throw new AppError("state_conflict", `the item is checked out until ${busyUntil} (checkout ${current.id})`, {
          extras: { conflictingCheckoutId: current.id },
        });
      }
    }
    const row = newCheckoutRow(ctx, {
      itemId: item.id,
      state: "reserved",
      holder: input.holder,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      dueAt: null,
      checkedOutAt: null,
      note: input.note ?? null,
    });
    await writer(ctx).insert(checkouts).values(row);
    await appendEvent(ctx, checkoutEvents, row.id, "reserved", null, { startsAt: input.startsAt, endsAt: input.endsAt, holder: input.holder });
    await recordMovement(ctx, {
      itemId: item.id,
      kind: "reserved",
      bizLocationId: item.locationId,
      holder: input.holder,
      checkoutId: row.id,
      data: { startsAt: input.startsAt, endsAt: input.endsAt },
    });
    await holdIfStarted(ctx, row);
    return toCheckoutDto(row, ctx.nowIso);
  });
}

export async function cancelReservation(ctx: RequestCtx, id: string, input: z.output<typeof CancelReservation>): Promise<CheckoutDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadCheckout(ctx, id, "reservation");
    assertVersion("checkout", row, input.expectedVersion);
    assertCheckoutMove(row.state, "cancelled", "cancel");
    const next = await saveCheckout(ctx, row, { state: "cancelled" });
    await appendEvent(ctx, checkoutEvents, id, "cancelled", input.reason || null, {});
    await recordMovement(ctx, {
      itemId: row.itemId,
      kind: "reservation_cancelled",
      bizLocationId: await itemLocation(ctx, row.itemId),
      holder: holderOf(row),
      checkoutId: id,
      reason: input.reason || null,
      data: { startsAt: row.startsAt, endsAt: row.endsAt },
    });
    await clearBlock(ctx, row.itemId, "reserved", row.id);
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/** Only a user holder acknowledges, once per holding (a transfer resets it). */
export async function acknowledgeCheckout(ctx: RequestCtx, id: string, input: z.output<typeof AcknowledgeCheckout>): Promise<CheckoutDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadCheckout(ctx, id);
    if (row.holderKind !== "user" || row.holderId !== ctx.actorId) {
      throw new AppError("not_holder", "only the user holding this checkout can acknowledge it");
    }
    assertVersion("checkout", row, input.expectedVersion);
    requireState(row.state, ["checked_out"], "acknowledge");
    if (row.acknowledgedAt !== null) throw new AppError("state_conflict", `already acknowledged at ${row.acknowledgedAt}`);
    const next = await saveCheckout(ctx, row, { acknowledgedAt: ctx.nowIso, acknowledgedBy: ctx.actorId });
    await appendEvent(ctx, checkoutEvents, id, "acknowledged", null, { holder: holderOf(row) });
    await recordMovement(ctx, {
      itemId: row.itemId,
      kind: "acknowledged",
      bizLocationId: await itemLocation(ctx, row.itemId),
      holder: { kind: "user", id: ctx.actorId },
      checkoutId: id,
    });
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/**
 * Any future dueAt (shortening too), as long as no reservation starts before it and
 * the active custody policy allows it (maxCheckoutDays from the checkout time;
 * with acknowledgementRequired, a user holder's acknowledgement first).
 */
export async function extendCheckout(ctx: RequestCtx, id: string, input: z.output<typeof ExtendCheckout>): Promise<CheckoutDto> {
  if (input.dueAt <= ctx.nowIso) throw invalid("/body/dueAt", "must be in the future");
  return withTx(ctx, async (ctx) => {
    const row = await loadCheckout(ctx, id);
    assertVersion("checkout", row, input.expectedVersion);
    requireState(row.state, ["checked_out"], "extend");
    const clash = (await overlappingReservations(ctx, row.itemId, ctx.nowIso, input.dueAt))[0];
    if (clash) throw reservedConflict(clash);
    await assertAcknowledgedIfRequired(ctx, row, "extended");
    await assertCustodyPolicy(ctx, row.checkedOutAt ?? row.startsAt, input.dueAt, row.dueAt);
    const next = await saveCheckout(ctx, row, { dueAt: input.dueAt });
    await appendEvent(ctx, checkoutEvents, id, "extended", input.reason, { fromDueAt: row.dueAt, toDueAt: input.dueAt });
    await recordMovement(ctx, {
      itemId: row.itemId,
      kind: "extended",
      bizLocationId: await itemLocation(ctx, row.itemId),
      holder: holderOf(row),
      checkoutId: id,
      reason: input.reason,
      data: { fromDueAt: row.dueAt, toDueAt: input.dueAt },
    });
    return toCheckoutDto(next, ctx.nowIso);
  });
}

export async function transferCheckout(ctx: RequestCtx, id: string, input: z.output<typeof TransferCheckout>): Promise<CheckoutDto> {
  return withTx(ctx, async (ctx) => {
    await assertHolder(ctx, input.holder);
    const row = await loadCheckout(ctx, id);
    assertVersion("checkout", row, input.expectedVersion);
    requireState(row.state, ["checked_out"], "transfer");
    if (sameHolder(row, input.holder)) throw new AppError("state_conflict", "the item is already held by this holder");
    await assertAcknowledgedIfRequired(ctx, row, "transferred");
    const item = await findItem(ctx, row.itemId);
    const fromHolder = holderOf(row);
    const next = await saveCheckout(ctx, row, {
      holderKind: input.holder.kind,
      holderId: input.holder.id,
      // The new holder has not acknowledged anything yet.
      acknowledgedAt: null,
      acknowledgedBy: null,
    });
    const reason = input.reason || null;
    await appendEvent(ctx, checkoutEvents, id, "transferred", reason, { fromHolder, toHolder: input.holder });
    await recordMovement(ctx, {
      itemId: row.itemId,
      kind: "transferred",
      bizLocationId: item?.locationId ?? null,
      holder: input.holder,
      checkoutId: id,
      reason,
      data: { fromHolder },
    });
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/**
 * Ends a checkout. The item takes the return condition; with `locationId` it is
 * put there (out of any container, its own contents following with one `moved`
 * movement each), else it stays where it is recorded.
 */
export async function returnCheckout(ctx: RequestCtx, id: string, input: z.output<typeof ReturnCheckout>): Promise<CheckoutDto> {
  return withTx(ctx, async (ctx) => {
    if (input.locationId !== undefined && !(await activeLocationExists(ctx, input.locationId))) throw invalid("/body/locationId", "unknown location");
    const row = await loadCheckout(ctx, id);
    assertVersion("checkout", row, input.expectedVersion);
    assertCheckoutMove(row.state, "returned", "return");
    const item = await findItem(ctx, row.itemId);
    if (!item) throw notFound("item");
    const toLocationId = input.locationId ?? item.locationId;
    const note = input.note || null;

    const next = await saveCheckout(ctx, row, {
      state: "returned",
      returnedAt: ctx.nowIso,
      returnCondition: input.condition ?? null,
      returnLocationId: toLocationId,
    });
    await appendEvent(ctx, checkoutEvents, id, "returned", note, { condition: input.condition ?? null, locationId: toLocationId });
    await recordMovement(ctx, {
      itemId: item.id,
      kind: "returned",
      bizLocationId: toLocationId,
      fromLocationId: item.locationId,
      toLocationId,
      fromContainerId: input.locationId !== undefined ? item.containerId : null,
      holder: holderOf(row),
      checkoutId: id,
      reason: note,
      data: { condition: input.condition ?? null, fromCondition: item.condition },
    });

    // One write of the item: custody released, condition and place taken (one new version).
    await clearBlock(ctx, item.id, "checked_out", row.id);
    const itemPatch: Partial<ItemRow> = { condition: input.condition };
    if (input.locationId !== undefined) Object.assign(itemPatch, { locationId: input.locationId, containerId: null });
    await changeItem(ctx, item.id, itemPatch);
    if (input.locationId !== undefined && input.locationId !== item.locationId) {
      await moveContents(ctx, item.id, input.locationId, { reason: "its container was returned", data: { checkoutId: id } });
    }
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/**
 * When the reservations job next has work (its probe, reads only): a started reservation
 * without its block is due now; otherwise the earliest start of a reservation still ahead,
 * or end of a reservation still `reserved` (it then expires). Null: no reservation.
 */
export async function reservationsDueAt(ctx: TenantCtx): Promise<string | null> {
  const q = db(ctx);
  const unblocked = await q
    .select({ one: sql`1` })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.state, "reserved"),
        lte(checkouts.startsAt, ctx.nowIso),
        or(isNull(checkouts.endsAt), gt(checkouts.endsAt, ctx.nowIso)),
        notExists(q.select({ one: sql`1` }).from(itemBlocks).where(and(eq(itemBlocks.itemId, checkouts.itemId), eq(itemBlocks.kind, "reserved"), eq(itemBlocks.sourceId, checkouts.id)))),
      ),
    )
    .limit(1);
  if (unblocked.length > 0) return ctx.nowIso;
  const [next] = await q
    .select({ start: sql<string | null>`min(case when ${checkouts.startsAt} > ${ctx.nowIso} then ${checkouts.startsAt} end)`, end: sql<string | null>`min(${checkouts.endsAt})` })
    .from(checkouts)
    .where(eq(checkouts.state, "reserved"));
  const times = [next?.start, next?.end].filter((t): t is string => typeof t === "string").sort();
  return times[0] ?? null;
}

/**
 * Items whose reservation window has started become `reserved` (availability
 * describes now; a reservation for next week leaves the item available until then):
 * each started reservation without its block gets one. At most `limit` per call;
 * returns how many blocks were set. Runs in the reservations job as `system`.
 */
export async function startReservationWindows(ctx: TenantCtx, limit = 500): Promise<number> {
  return withTx(ctx, async (ctx) => {
    const started = await writer(ctx)
      .select()
      .from(checkouts)
      .where(
        and(
          eq(checkouts.state, "reserved"),
          lte(checkouts.startsAt, ctx.nowIso),
          or(isNull(checkouts.endsAt), gt(checkouts.endsAt, ctx.nowIso)),
          notExists(
            writer(ctx)
              .select({ one: sql`1` })
              .from(itemBlocks)
              .where(and(eq(itemBlocks.itemId, checkouts.itemId), eq(itemBlocks.kind, "reserved"), eq(itemBlocks.sourceId, checkouts.id))),
          ),
        ),
      )
      .limit(limit);
    for (const r of started) await holdIfStarted(ctx, r);
    return started.length;
  });
}

/**
 * Cancels reservations whose window ended without a checkout, so they stop
 * holding the item `reserved`: each gets an `expired` event and a
 * `reservation_cancelled` movement (data.expired; the actor is the context's,
 * `system` in the reservations job). At most `limit` per call.
 */
export async function expireReservations(ctx: TenantCtx, limit = 500): Promise<number> {
  return withTx(ctx, async (ctx) => {
    const ended = await writer(ctx)
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.state, "reserved"), lte(checkouts.endsAt, ctx.nowIso)))
      .limit(limit);
    const reason = "the reservation window ended without a checkout";
    for (const r of ended) {
      await saveCheckout(ctx, r, { state: "cancelled" });
      await appendEvent(ctx, checkoutEvents, r.id, "expired", reason, { endsAt: r.endsAt });
      await recordMovement(ctx, {
        itemId: r.itemId,
        kind: "reservation_cancelled",
        bizLocationId: await itemLocation(ctx, r.itemId),
        holder: holderOf(r),
        checkoutId: r.id,
        reason,
        data: { startsAt: r.startsAt, endsAt: r.endsAt, expired: true },
      });
      await clearBlock(ctx, r.itemId, "reserved", r.id);
    }
    return ended.length;
  });
}

// ---------------------------------------------------------------- overdue escalation (workflow cases)

export const ESCALATION_ACTIONS = ["mark_lost", "demand_return", "write_off"] as const;
export type EscalationAction = (typeof ESCALATION_ACTIONS)[number];

/** The overdue checkout an escalation names: 400 at `path` when unknown, 409 unless it is checked out and past its dueAt. */
export async function requireOverdueCheckout(ctx: TenantCtx, id: string, path: string): Promise<CheckoutDto> {
  const row = (await db(ctx).select().from(checkouts).where(eq(checkouts.id, id)))[0];
  if (!row) throw invalid(path, "unknown checkout");
  requireState(row.state, ["checked_out"], "escalate");
  if (!isOverdue(row, ctx.nowIso)) throw new AppError("state_conflict", `the checkout is not overdue (due ${row.dueAt})`);
  return toCheckoutDto(row, ctx.nowIso);
}

/**
 * Records an approved escalation of an overdue checkout (a workflow case applies it).
 * `mark_lost` and `demand_return` add an `escalated` event and keep the checkout
 * checked_out: the holder still answers for the item and a later return closes it
 * as usual. `write_off` ends it: state `returned` (the contract's end of a holding),
 * a `written_off` event, the item's custody block released, and no `returned`
 * movement or custody.returned event, since nothing came back.
 */
export async function escalateOverdueCheckout(
  ctx: TenantCtx,
  id: string,
  input: { action: EscalationAction; reason: string; workflowCaseId: string },
): Promise<CheckoutDto> {
  return withTx(ctx, async (ctx) => {
    const current = await requireOverdueCheckout(ctx, id, "/body/checkoutId");
    const row = await loadCheckout(ctx, current.id);
    const data = { action: input.action, dueAt: row.dueAt, holder: holderOf(row), workflowCaseId: input.workflowCaseId };
    if (input.action !== "write_off") {
      const next = await saveCheckout(ctx, row, {});
      await appendEvent(ctx, checkoutEvents, id, "escalated", input.reason, data);
      return toCheckoutDto(next, ctx.nowIso);
    }
    const next = await saveCheckout(ctx, row, { state: "returned", returnedAt: ctx.nowIso });
    await appendEvent(ctx, checkoutEvents, id, "written_off", input.reason, data);
    await clearBlock(ctx, row.itemId, "checked_out", row.id);
    return toCheckoutDto(next, ctx.nowIso);
  });
}

// ---------------------------------------------------------------- reads for other modules

/** The item's open checkout and its reservations not yet ended, by start (a snapshot query for the item detail). */
export function custodyOfItemQuery(q: Querier, itemId: string, nowIso: string, limit: number) {
  return q
    .select()
    .from(checkouts)
    .where(
      and(
        eq(checkouts.itemId, itemId),
        sql`(${checkouts.state} = 'checked_out' OR (${checkouts.state} = 'reserved' AND (${checkouts.endsAt} IS NULL OR ${checkouts.endsAt} > ${nowIso})))`,
      ),
    )
    .orderBy(asc(checkouts.startsAt), asc(checkouts.id))
    .limit(limit);
}

/** The item's open checkout (state checked_out), or null. */
export async function currentCheckout(ctx: TenantCtx, itemId: string): Promise<CheckoutDto | null> {
  const row = await activeCheckout(ctx, itemId);
  return row ? toCheckoutDto(row, ctx.nowIso) : null;
}
