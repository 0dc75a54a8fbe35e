// Custody: reservations, checkouts and their history. A reservation is a checkout
// record in state `reserved`; starting it turns the same record `checked_out`.
// Every command runs in one write transaction (under the partner's write lock, so
// overlap checks and writes cannot interleave), writes a checkout_events row (the
// checkout's own history) and appends the step to the item's movement chronology.
import { and, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { newRecordMeta, readSnapshot, withTx, type Querier, type RequestCtx } from "../../platform/http/context.ts";
import { FilterSet, paginate, updatedOrder } from "../../platform/paging/paging.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { locations, parties } from "../master-data/master-data.tables.ts";
import { items } from "../items/items.tables.ts";
import type { ItemRow } from "../items/items.dto.ts";
import { refreshAvailability } from "../items/items.state.ts";
import { moveContents } from "../items/containment.ts";
import { appendMovement, recordMovement } from "../movements/movements.service.ts";
import { checkouts, checkoutEvents } from "./custody.tables.ts";
import { assertCheckoutMove, isOverdue, requireState } from "./custody.states.ts";
import type {
  CheckoutEvent,
  ListCheckoutsQuery,
  CreateCheckout,
  CreateReservation,
  CancelReservation,
  AcknowledgeCheckout,
  ExtendCheckout,
  TransferCheckout,
  ReturnCheckout,
} from "./custody.schemas.ts";

type CheckoutRow = typeof checkouts.$inferSelect;
type EventRow = typeof checkoutEvents.$inferSelect;
type EventKind = z.infer<typeof CheckoutEvent>["kind"];
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

function toEventDto(r: EventRow) {
  return { id: r.id, kind: r.kind as EventKind, actorId: r.actorId, recordedAt: r.recordedAt, reason: r.reason, data: r.data };
}

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
  return paginate(
    ctx,
    {
      route: "GET /checkouts",
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...updatedOrder(checkouts),
      where: filters.where(),
    },
    (r) => toCheckoutDto(r, ctx.nowIso),
  );
}

export async function getCheckout(ctx: RequestCtx, id: string) {
  // One snapshot: the record and its history agree.
  const [rows, events] = await readSnapshot(ctx, (q) => [
    q.select().from(checkouts).where(eq(checkouts.id, id)),
    q.select().from(checkoutEvents).where(eq(checkoutEvents.checkoutId, id)).orderBy(desc(checkoutEvents.recordedAt), desc(checkoutEvents.id)),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("checkout");
  return { ...toCheckoutDto(row, ctx.nowIso), events: events.map(toEventDto) };
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

async function loadItem(tx: Querier, itemId: string): Promise<ItemRow> {
  const item = (await tx.select().from(items).where(eq(items.id, itemId)))[0];
  if (!item) throw invalid("/body/itemId", "unknown item");
  return item;
}

/** A holder must be an active member, an active party or an active location; else 400. */
async function assertHolder(tx: Querier, holder: HolderRef, path = "/body/holder/id"): Promise<void> {
  let found: boolean;
  if (holder.kind === "user") {
    found = (await tx.select({ id: memberships.id }).from(memberships).where(and(eq(memberships.userId, holder.id), eq(memberships.status, "active")))).length > 0;
  } else if (holder.kind === "party") {
    found = (await tx.select({ id: parties.id }).from(parties).where(and(eq(parties.id, holder.id), eq(parties.status, "active")))).length > 0;
  } else {
    found = (await tx.select({ id: locations.id }).from(locations).where(and(eq(locations.id, holder.id), eq(locations.status, "active")))).length > 0;
  }
  if (!found) throw invalid(path, `unknown or inactive ${holder.kind === "user" ? "member" : holder.kind}`);
}

async function assertLocation(tx: Querier, locationId: string, path: string): Promise<void> {
  const row = (await tx.select({ id: locations.id }).from(locations).where(and(eq(locations.id, locationId), eq(locations.status, "active"))))[0];
  if (!row) throw invalid(path, "unknown location");
}

async function loadCheckout(tx: Querier, id: string, what = "checkout"): Promise<CheckoutRow> {
  const row = (await tx.select().from(checkouts).where(eq(checkouts.id, id)))[0];
  if (!row) throw notFound(what);
  return row;
}


function sameHolder(row: CheckoutRow, holder: HolderRef): boolean {
  return row.holderKind === holder.kind && row.holderId === holder.id;
}

/** Open reservations of the item whose window [startsAt, endsAt) overlaps [from, to). */
async function overlappingReservations(tx: Querier, itemId: string, from: string, to: string, exceptId?: string): Promise<CheckoutRow[]> {
  return tx
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

async function activeCheckout(tx: Querier, itemId: string): Promise<CheckoutRow | undefined> {
  return (await tx.select().from(checkouts).where(and(eq(checkouts.itemId, itemId), eq(checkouts.state, "checked_out"))))[0];
}

function reservedConflict(r: CheckoutRow): AppError {
  return new AppError("state_conflict", `the item is reserved from ${r.startsAt} to ${r.endsAt} (reservation ${r.id})`, {
    extras: { conflictingCheckoutId: r.id },
  });
}

async function addEvent(ctx: RequestCtx, tx: Querier, checkoutId: string, kind: EventKind, reason: string | null, data: Record<string, unknown>) {
  await tx.insert(checkoutEvents).values({ id: ctx.deps.newId(), checkoutId, kind, actorId: ctx.userId, recordedAt: ctx.nowIso, reason, data });
}

/** Applies a change to a checkout: version + 1, updatedAt = now. Returns the new row. */
async function saveCheckout(ctx: RequestCtx, tx: Querier, row: CheckoutRow, patch: Partial<CheckoutRow>): Promise<CheckoutRow> {
  const next: CheckoutRow = { ...row, ...patch, version: row.version + 1, updatedAt: ctx.nowIso };
  const { id: _id, createdAt: _c, createdBy: _b, ...set } = next;
  await tx.update(checkouts).set(set).where(eq(checkouts.id, row.id));
  return next;
}

function holderOf(row: CheckoutRow): HolderRef {
  return { kind: row.holderKind, id: row.holderId };
}

/** Where the item is now: the business location of custody steps that do not move it. */
async function itemLocation(tx: Querier, itemId: string): Promise<string | null> {
  return (await tx.select({ locationId: items.locationId }).from(items).where(eq(items.id, itemId)))[0]?.locationId ?? null;
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
  return withTx(ctx, async (tx) => {
    const item = await loadItem(tx, input.itemId);
    await assertHolder(tx, input.holder);
    let reservation: CheckoutRow | undefined;
    if (input.reservationId !== undefined) {
      reservation = (await tx.select().from(checkouts).where(eq(checkouts.id, input.reservationId)))[0];
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
    const current = await activeCheckout(tx, item.id);
    if (current) throw new AppError("state_conflict", `the item is already checked out (checkout ${current.id})`, { extras: { conflictingCheckoutId: current.id } });
    if (BLOCKING_AVAILABILITY.has(item.availability)) throw new AppError("state_conflict", `the item is ${item.availability}`);
    // A packed item travels with its container; it must be unpacked (moved out) before it leaves alone.
    if (item.containerId !== null) throw new AppError("state_conflict", `the item is packed in container ${item.containerId}; move it out first`);
    const clash = (await overlappingReservations(tx, item.id, ctx.nowIso, input.dueAt, reservation?.id))[0];
    if (clash) throw reservedConflict(clash);

    let row: CheckoutRow;
    if (reservation) {
      row = await saveCheckout(ctx, tx, reservation, {
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
      await tx.insert(checkouts).values(row);
    }
    await addEvent(ctx, tx, row.id, "checked_out", null, { dueAt: input.dueAt, holder: input.holder, reservationId: reservation?.id ?? null });
    await recordMovement(ctx, tx, {
      itemId: item.id,
      kind: "checked_out",
      bizLocationId: item.locationId,
      holder: input.holder,
      checkoutId: row.id,
      data: { dueAt: input.dueAt },
    });
    await refreshAvailability(tx, item.id, ctx.nowIso);
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
  return withTx(ctx, async (tx) => {
    const item = await loadItem(tx, input.itemId);
    await assertHolder(tx, input.holder);
    if (!RESERVABLE.has(item.lifecycle)) throw new AppError("state_conflict", `a ${item.lifecycle} item cannot be reserved`);
    const clash = (await overlappingReservations(tx, item.id, input.startsAt, input.endsAt))[0];
    if (clash) throw reservedConflict(clash);
    const current = await activeCheckout(tx, item.id);
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
    await tx.insert(checkouts).values(row);
    await addEvent(ctx, tx, row.id, "reserved", null, { startsAt: input.startsAt, endsAt: input.endsAt, holder: input.holder });
    await recordMovement(ctx, tx, {
      itemId: item.id,
      kind: "reserved",
      bizLocationId: item.locationId,
      holder: input.holder,
      checkoutId: row.id,
      data: { startsAt: input.startsAt, endsAt: input.endsAt },
    });
    await refreshAvailability(tx, item.id, ctx.nowIso);
    return toCheckoutDto(row, ctx.nowIso);
  });
}

export async function cancelReservation(ctx: RequestCtx, id: string, input: z.output<typeof CancelReservation>): Promise<CheckoutDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadCheckout(tx, id, "reservation");
    assertVersion("checkout", row, input.expectedVersion);
    assertCheckoutMove(row.state, "cancelled", "cancel");
    const next = await saveCheckout(ctx, tx, row, { state: "cancelled" });
    await addEvent(ctx, tx, id, "cancelled", input.reason || null, {});
    await recordMovement(ctx, tx, {
      itemId: row.itemId,
      kind: "reservation_cancelled",
      bizLocationId: await itemLocation(tx, row.itemId),
      holder: holderOf(row),
      checkoutId: id,
      reason: input.reason || null,
      data: { startsAt: row.startsAt, endsAt: row.endsAt },
    });
    await refreshAvailability(tx, row.itemId, ctx.nowIso);
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/** Only a user holder acknowledges, once per holding (a transfer resets it). */
export async function acknowledgeCheckout(ctx: RequestCtx, id: string, input: z.output<typeof AcknowledgeCheckout>): Promise<CheckoutDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadCheckout(tx, id);
    if (row.holderKind !== "user" || row.holderId !== ctx.userId) {
      throw new AppError("not_holder", "only the user holding this checkout can acknowledge it");
    }
    assertVersion("checkout", row, input.expectedVersion);
    requireState(row.state, ["checked_out"], "acknowledge");
    if (row.acknowledgedAt !== null) throw new AppError("state_conflict", `already acknowledged at ${row.acknowledgedAt}`);
    const next = await saveCheckout(ctx, tx, row, { acknowledgedAt: ctx.nowIso, acknowledgedBy: ctx.userId });
    await addEvent(ctx, tx, id, "acknowledged", null, { holder: holderOf(row) });
    await recordMovement(ctx, tx, {
      itemId: row.itemId,
      kind: "acknowledged",
      bizLocationId: await itemLocation(tx, row.itemId),
      holder: { kind: "user", id: ctx.userId },
      checkoutId: id,
    });
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/** Any future dueAt (shortening too), as long as no reservation starts before it. */
export async function extendCheckout(ctx: RequestCtx, id: string, input: z.output<typeof ExtendCheckout>): Promise<CheckoutDto> {
  if (input.dueAt <= ctx.nowIso) throw invalid("/body/dueAt", "must be in the future");
  return withTx(ctx, async (tx) => {
    const row = await loadCheckout(tx, id);
    assertVersion("checkout", row, input.expectedVersion);
    requireState(row.state, ["checked_out"], "extend");
    const clash = (await overlappingReservations(tx, row.itemId, ctx.nowIso, input.dueAt))[0];
    if (clash) throw reservedConflict(clash);
    const next = await saveCheckout(ctx, tx, row, { dueAt: input.dueAt });
    await addEvent(ctx, tx, id, "extended", input.reason, { fromDueAt: row.dueAt, toDueAt: input.dueAt });
    await recordMovement(ctx, tx, {
      itemId: row.itemId,
      kind: "extended",
      bizLocationId: await itemLocation(tx, row.itemId),
      holder: holderOf(row),
      checkoutId: id,
      reason: input.reason,
      data: { fromDueAt: row.dueAt, toDueAt: input.dueAt },
    });
    return toCheckoutDto(next, ctx.nowIso);
  });
}

export async function transferCheckout(ctx: RequestCtx, id: string, input: z.output<typeof TransferCheckout>): Promise<CheckoutDto> {
  return withTx(ctx, async (tx) => {
    await assertHolder(tx, input.holder);
    const row = await loadCheckout(tx, id);
    assertVersion("checkout", row, input.expectedVersion);
    requireState(row.state, ["checked_out"], "transfer");
    if (sameHolder(row, input.holder)) throw new AppError("state_conflict", "the item is already held by this holder");
    const item = (await tx.select({ locationId: items.locationId }).from(items).where(eq(items.id, row.itemId)))[0];
    const fromHolder = holderOf(row);
    const next = await saveCheckout(ctx, tx, row, {
      holderKind: input.holder.kind,
      holderId: input.holder.id,
      // The new holder has not acknowledged anything yet.
      acknowledgedAt: null,
      acknowledgedBy: null,
    });
    const reason = input.reason || null;
    await addEvent(ctx, tx, id, "transferred", reason, { fromHolder, toHolder: input.holder });
    await recordMovement(ctx, tx, {
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
  return withTx(ctx, async (tx) => {
    if (input.locationId !== undefined) await assertLocation(tx, input.locationId, "/body/locationId");
    const row = await loadCheckout(tx, id);
    assertVersion("checkout", row, input.expectedVersion);
    assertCheckoutMove(row.state, "returned", "return");
    const item = (await tx.select().from(items).where(eq(items.id, row.itemId)))[0];
    if (!item) throw notFound("item");
    const toLocationId = input.locationId ?? item.locationId;
    const note = input.note || null;

    const next = await saveCheckout(ctx, tx, row, {
      state: "returned",
      returnedAt: ctx.nowIso,
      returnCondition: input.condition ?? null,
      returnLocationId: toLocationId,
    });
    await addEvent(ctx, tx, id, "returned", note, { condition: input.condition ?? null, locationId: toLocationId });
    await recordMovement(ctx, tx, {
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

    // Availability first (it may bump the item's version), then the item's own
    // changes, so the item gains exactly one version for this return.
    await refreshAvailability(tx, item.id, ctx.nowIso);
    const itemPatch: Partial<ItemRow> = {};
    if (input.condition !== undefined && input.condition !== item.condition) itemPatch.condition = input.condition;
    if (input.locationId !== undefined) {
      if (input.locationId !== item.locationId) itemPatch.locationId = input.locationId;
      if (item.containerId !== null) itemPatch.containerId = null;
    }
    if (Object.keys(itemPatch).length > 0) {
      const now = (await tx.select({ version: items.version }).from(items).where(eq(items.id, item.id)))[0];
      const version = now && now.version > item.version ? now.version : item.version + 1;
      await tx.update(items).set({ ...itemPatch, version, updatedAt: ctx.nowIso }).where(eq(items.id, item.id));
    }
    if (itemPatch.locationId !== undefined) await moveContents(ctx, tx, item.id, itemPatch.locationId, { reason: "its container was returned", data: { checkoutId: id } });
    return toCheckoutDto(next, ctx.nowIso);
  });
}

/** Actor of changes the service makes on its own schedule. */
export const SYSTEM_ACTOR = "system";

/**
 * Cancels reservations whose window ended without a checkout, so they stop
 * holding the item `reserved`; each gets an `expired` event and a
 * `reservation_cancelled` movement (data.expired, actor `system`; no outbox event,
 * so appendMovement without a request). At most `limit` per call.
 */
/**
 * Items still `available` whose reservation window has started become `reserved`
 * (availability describes now; a reservation for next week leaves the item
 * available until then). At most `limit` items per call; returns how many changed.
 */
export async function startReservationWindows(tx: Querier, nowIso: string, limit = 500): Promise<number> {
  const started = await tx
    .selectDistinct({ itemId: checkouts.itemId })
    .from(checkouts)
    .innerJoin(items, eq(items.id, checkouts.itemId))
    .where(
      and(
        eq(checkouts.state, "reserved"),
        lte(checkouts.startsAt, nowIso),
        or(isNull(checkouts.endsAt), gt(checkouts.endsAt, nowIso)),
        eq(items.availability, "available"),
      ),
    )
    .limit(limit);
  let changed = 0;
  for (const { itemId } of started) if ((await refreshAvailability(tx, itemId, nowIso)) !== "available") changed++;
  return changed;
}

export async function expireReservations(tx: Querier, nowIso: string, newId: () => string, limit = 500): Promise<number> {
  const ended = await tx
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.state, "reserved"), lte(checkouts.endsAt, nowIso)))
    .limit(limit);
  for (const r of ended) {
    await tx.update(checkouts).set({ state: "cancelled", version: r.version + 1, updatedAt: nowIso }).where(eq(checkouts.id, r.id));
    await tx.insert(checkoutEvents).values({
      id: newId(),
      checkoutId: r.id,
      kind: "expired",
      actorId: SYSTEM_ACTOR,
      recordedAt: nowIso,
      reason: "the reservation window ended without a checkout",
      data: { endsAt: r.endsAt },
    });
    await appendMovement(
      tx,
      {
        itemId: r.itemId,
        kind: "reservation_cancelled",
        actorId: SYSTEM_ACTOR,
        recordedAt: nowIso,
        bizLocationId: await itemLocation(tx, r.itemId),
        holder: holderOf(r),
        checkoutId: r.id,
        reason: "the reservation window ended without a checkout",
        data: { startsAt: r.startsAt, endsAt: r.endsAt, expired: true },
      },
      newId,
    );
  }
  for (const itemId of new Set(ended.map((r) => r.itemId))) await refreshAvailability(tx, itemId, nowIso);
  return ended.length;
}
