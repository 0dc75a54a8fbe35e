// The movement chronology: every step of an item's story (physical events and the
// custody and identity steps around them) appends one immutable row in the caller's
// transaction; kinds with a contract §10 event also append that outbox event.
// Nothing here ever updates a movement.
import { count, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { AppError, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, type Querier, type RequestCtx } from "../../platform/http/context.ts";
import { appendEvent, type EventKind } from "../../platform/outbox/outbox.ts";
import { FilterSet, paginate, type Page } from "../../platform/paging/paging.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { items } from "../items/items.tables.ts";
import { moveContents } from "../items/containment.ts";
import { requireLocation } from "../master-data/master-data.service.ts";
import { locations, parties } from "../master-data/master-data.tables.ts";
import { movements } from "./movements.tables.ts";
import type { CorrectMovement, ListMovementsQuery } from "./movements.schemas.ts";
import { insertRow } from "../../platform/db/prepared.ts";

export const MOVEMENT_KINDS = [
  "registered",
  "activated",
  "tagged",
  "moved",
  "consumed",
  "reserved",
  "reservation_cancelled",
  "checked_out",
  "acknowledged",
  "extended",
  "transferred",
  "returned",
  "corrected",
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/**
 * The contract §10 event each kind publishes. Partial on purpose: §10 names events
 * for physical custody and location changes only, so activation, tagging,
 * reservations, acknowledgement and extension are chronology rows without one.
 */
const EVENT_OF: Partial<Record<MovementKind, EventKind>> = {
  registered: "asset.created",
  moved: "asset.moved",
  consumed: "asset.consumed",
  checked_out: "custody.checked_out",
  transferred: "custody.transferred",
  returned: "custody.returned",
  corrected: "movement.corrected",
};

/** The outbox event a movement of this kind writes, or null when it writes none. */
export function eventOf(kind: MovementKind): EventKind | null {
  return EVENT_OF[kind] ?? null;
}

export type MovementRow = typeof movements.$inferSelect;

export interface MovementInput {
  itemId: string;
  kind: MovementKind;
  /** When it happened; defaults to the request's server time. */
  eventTime?: string;
  /** Where it was observed (EPCIS read point); defaults to the business location. */
  readPointId?: string | null;
  /** Where the item is after the event (EPCIS business location). */
  bizLocationId?: string | null;
  fromLocationId?: string | null;
  toLocationId?: string | null;
  fromContainerId?: string | null;
  toContainerId?: string | null;
  holder?: { kind: string; id: string } | null;
  quantity?: number | null;
  checkoutId?: string | null;
  correctsId?: string | null;
  reason?: string | null;
  data?: Record<string, unknown>;
}

export function toMovementDto(r: MovementRow, correctedBy: string | null = null) {
  return {
    id: r.id,
    itemId: r.itemId,
    kind: r.kind as MovementKind,
    eventTime: r.eventTime,
    recordedAt: r.recordedAt,
    actorId: r.actorId,
    readPointId: r.readPointId,
    bizLocationId: r.bizLocationId,
    fromLocationId: r.fromLocationId,
    toLocationId: r.toLocationId,
    fromContainerId: r.fromContainerId,
    toContainerId: r.toContainerId,
    holder: r.holderKind && r.holderId ? { kind: r.holderKind, id: r.holderId } : null,
    quantity: r.quantity,
    checkoutId: r.checkoutId,
    reason: r.reason,
    corrects: r.correctsId,
    correctedBy,
    data: r.data,
  };
}
export type MovementDto = ReturnType<typeof toMovementDto>;

/** A movement's facts plus who recorded it and when (the request's, or a job's). */
export interface MovementFields extends MovementInput {
  actorId: string;
  recordedAt: string;
}

/**
 * The one insert path of the chronology: appends the row and nothing else (no
 * outbox event). Requests go through recordMovement; a job without a RequestCtx
 * calls this directly, and then only for kinds without a §10 event (eventOf = null).
 */
export async function appendMovement(tx: Querier, f: MovementFields, newId: () => string): Promise<MovementRow> {
  const row: MovementRow = {
    id: newId(),
    itemId: f.itemId,
    kind: f.kind,
    eventTime: f.eventTime ?? f.recordedAt,
    recordedAt: f.recordedAt,
    actorId: f.actorId,
    readPointId: f.readPointId ?? f.bizLocationId ?? null,
    bizLocationId: f.bizLocationId ?? null,
    fromLocationId: f.fromLocationId ?? null,
    toLocationId: f.toLocationId ?? null,
    fromContainerId: f.fromContainerId ?? null,
    toContainerId: f.toContainerId ?? null,
    holderKind: f.holder?.kind ?? null,
    holderId: f.holder?.id ?? null,
    quantity: f.quantity ?? null,
    checkoutId: f.checkoutId ?? null,
    correctsId: f.correctsId ?? null,
    reason: f.reason ?? null,
    data: f.data ?? {},
  };
  await insertRow(tx, movements, row);
  return row;
}

/**
 * Appends a movement in the caller's transaction; the actor is always the token's
 * subject, recordedAt the request time. Only the contract §10 kinds (registered,
 * moved, consumed, checked_out, transferred, returned, corrected) also append their
 * outbox event; the other steps (activated, tagged, reserved, reservation_cancelled,
 * acknowledged, extended) are chronology only.
 */
export async function recordMovement(ctx: RequestCtx, tx: Querier, input: MovementInput): Promise<MovementRow> {
  const row = await appendMovement(tx, { ...input, actorId: ctx.userId, recordedAt: ctx.nowIso }, ctx.deps.newId);
  const kind = eventOf(input.kind);
  if (kind) await appendEvent(ctx, tx, { kind, aggregateId: input.itemId, occurredAt: row.eventTime, data: { movement: toMovementDto(row) } });
  return row;
}

// --- Reads and corrections (GET /movements, GET /movements/{id}, POST /movements/{id}/correct) ---

/**
 * The correction appended for a movement, if any, through movements_corrects_idx
 * (at most one exists: a second correction is refused). Written out qualified:
 * drizzle renders a column of a single-table select unqualified, which inside the
 * subquery would name c's own id.
 */
const correctedByCol = sql<string | null>`(SELECT c.id FROM movements c WHERE c.corrects_id = "movements"."id" LIMIT 1)`;
const withCorrectedBy = { ...getTableColumns(movements), correctedBy: correctedByCol };
type MovementWithLink = MovementRow & { correctedBy: string | null };

const toLinkedDto = (r: MovementWithLink) => toMovementDto(r, r.correctedBy);

/** Normalised filters (echoed, cursor-bound) of GET /movements and the WHERE clause they make. */
export function movementFilters(q: ListMovementsQuery): { filters: Record<string, unknown>; where: SQL | undefined } {
  const f = new FilterSet()
    .add("itemId", q.itemId, (v) => eq(movements.itemId, v))
    .add("kind", q.kind, (v) => inArray(movements.kind, v))
    .add("from", q.from, (v) => gte(movements.eventTime, v))
    .add("to", q.to, (v) => lt(movements.eventTime, v));
  return { filters: f.applied, where: f.where() };
}

/** Page query of the chronology (exported for the query-plan test). */
export function movementsPage(q: Querier, where: SQL | undefined, orderBy: SQL[], limit: number) {
  return q.select(withCorrectedBy).from(movements).where(where).orderBy(...orderBy).limit(limit);
}

/** Count query of the chronology (exported for the query-plan test). */
export function movementsCount(q: Querier, where: SQL | undefined) {
  return q.select({ n: count() }).from(movements).where(where);
}

/** GET /movements: the chronology, (recordedAt, id) descending; from/to bound eventTime as [from, to). */
export async function listMovements(ctx: RequestCtx, q: ListMovementsQuery): Promise<Page<MovementDto>> {
  if (q.from && q.to && q.from >= q.to) throw invalid("/query/to", "must be after from");
  const { filters, where } = movementFilters(q);
  return paginate(
    ctx,
    {
      route: "GET /movements",
      filters,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: movements.recordedAt,
      orderId: movements.id,
      where,
      page: movementsPage,
      count: movementsCount,
      position: (r) => ({ t: r.recordedAt, i: r.id }),
    },
    toLinkedDto,
  );
}

export async function getMovement(ctx: RequestCtx, id: string): Promise<MovementDto> {
  const row = (await db(ctx).select(withCorrectedBy).from(movements).where(eq(movements.id, id)))[0];
  if (!row) throw notFound("movement");
  return toLinkedDto(row);
}

/** 400 with the body path when a corrected reference does not exist. */
async function assertReferences(tx: Querier, input: CorrectMovement): Promise<void> {
  if (input.locationId) {
    const hit = await tx.select({ id: locations.id }).from(locations).where(eq(locations.id, input.locationId));
    if (!hit.length) throw invalid("/body/locationId", "unknown location");
  }
  if (input.holder) {
    const { kind, id } = input.holder;
    // A member who has since left still held the item then: any membership counts.
    const hit =
      kind === "user"
        ? await tx.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, id))
        : kind === "party"
          ? await tx.select({ id: parties.id }).from(parties).where(eq(parties.id, id))
          : await tx.select({ id: locations.id }).from(locations).where(eq(locations.id, id));
    if (!hit.length) throw invalid("/body/holder/id", `unknown ${kind === "user" ? "member" : kind}`);
  }
}

/**
 * The movement that set the item's current location: among location-changing
 * movements (to_location_id set) not superseded by a correction, the latest by
 * the record position of its chain's first record (a correction stands where
 * the record it corrects stood). Steps that change no location (activated,
 * tagged, reserved, reservation_cancelled, acknowledged, extended, checked_out,
 * transferred) have no to_location_id, so a later one never hides the fact.
 */
async function currentLocationMovementId(tx: Querier, itemId: string): Promise<string | null> {
  const rows = await tx
    .select({ id: movements.id, correctsId: movements.correctsId, recordedAt: movements.recordedAt, toLocationId: movements.toLocationId })
    .from(movements)
    .where(eq(movements.itemId, itemId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const superseded = new Set(rows.map((r) => r.correctsId).filter((x): x is string => x !== null));
  const rootOf = (r: (typeof rows)[number]) => {
    let cur = r;
    for (let guard = 0; cur.correctsId && guard < rows.length; guard++) cur = byId.get(cur.correctsId) ?? cur;
    return cur;
  };
  let best: { id: string; t: string; i: string } | null = null;
  for (const r of rows) {
    if (r.toLocationId === null || superseded.has(r.id)) continue;
    const root = rootOf(r);
    if (!best || root.recordedAt > best.t || (root.recordedAt === best.t && root.id > best.i)) best = { id: r.id, t: root.recordedAt, i: root.id };
  }
  return best?.id ?? null;
}

/**
 * POST /movements/{id}/correct: appends a `corrected` movement pointing at the
 * original, which is never edited. Facts not corrected are copied from it.
 * A corrected location is applied to the item (and its container contents) only
 * when the original set the item's current location and the item is still
 * there and not itself inside a container; holder and quantity corrections are
 * recorded, not applied.
 */
export async function correctMovement(ctx: RequestCtx, id: string, input: CorrectMovement): Promise<MovementDto> {
  if (input.locationId === undefined && input.eventTime === undefined && input.holder === undefined && input.quantity === undefined) {
    throw invalid("/body", "name at least one corrected fact: locationId, eventTime, holder or quantity");
  }
  if (input.eventTime !== undefined && input.eventTime > ctx.nowIso) throw invalid("/body/eventTime", "must not be in the future");
  return withTx(ctx, async (tx) => {
    await assertReferences(tx, input);
    const original = (await tx.select().from(movements).where(eq(movements.id, id)))[0];
    if (!original) throw notFound("movement");
    const prior = (await tx.select({ id: movements.id }).from(movements).where(eq(movements.correctsId, id)).limit(1))[0];
    if (prior) {
      throw new AppError("state_conflict", `movement already corrected by ${prior.id}; correct that correction instead`, {
        extras: { correctedBy: prior.id },
      });
    }

    const oldHolder = original.holderKind && original.holderId ? { kind: original.holderKind, id: original.holderId } : null;
    const oldLocation = original.toLocationId ?? original.bizLocationId;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (input.locationId !== undefined) changes.locationId = { from: oldLocation, to: input.locationId };
    if (input.eventTime !== undefined) changes.eventTime = { from: original.eventTime, to: input.eventTime };
    if (input.holder !== undefined) changes.holder = { from: oldHolder, to: input.holder };
    if (input.quantity !== undefined) changes.quantity = { from: original.quantity, to: input.quantity };

    // A movement that moved the item gets a new destination; any other gets a new place of observation.
    const movedIt = original.toLocationId !== null;
    const newLocation = input.locationId;
    let appliedToItem = false;
    if (newLocation !== undefined && movedIt && (await currentLocationMovementId(tx, original.itemId)) === original.id) {
      const item = (await tx.select().from(items).where(eq(items.id, original.itemId)))[0];
      if (item && item.containerId === null && item.locationId === original.toLocationId) {
        appliedToItem = true;
        if (item.locationId !== newLocation) {
          // The item lands there now, so the place must be usable as for a move (not archived).
          await requireLocation(tx, newLocation, "/body/locationId");
          await tx.update(items).set({ locationId: newLocation, version: item.version + 1, updatedAt: ctx.nowIso }).where(eq(items.id, item.id));
          // Contents follow their container, as on a move: one `moved` movement each.
          await moveContents(ctx, tx, item.id, newLocation, { reason: "its container's location was corrected", data: { correctionOf: original.id } });
        }
      }
    }

    // data.original names the first record of the chain (corrects names the one just before):
    // a correction of a correction still says what kind of event is being set right.
    const chained = original.kind === "corrected" ? (original.data as { original?: { id?: unknown; kind?: unknown } }).original : undefined;
    const root = {
      id: typeof chained?.id === "string" ? chained.id : original.id,
      kind: typeof chained?.kind === "string" ? chained.kind : original.kind,
    };
    const row = await recordMovement(ctx, tx, {
      itemId: original.itemId,
      kind: "corrected",
      eventTime: input.eventTime ?? original.eventTime,
      readPointId: newLocation ?? original.readPointId,
      bizLocationId: newLocation ?? original.bizLocationId,
      fromLocationId: original.fromLocationId,
      toLocationId: movedIt && newLocation !== undefined ? newLocation : original.toLocationId,
      fromContainerId: original.fromContainerId,
      toContainerId: original.toContainerId,
      holder: input.holder ?? oldHolder,
      quantity: input.quantity ?? original.quantity,
      checkoutId: original.checkoutId,
      correctsId: original.id,
      reason: input.reason,
      data: { original: root, changes, appliedToItem },
    });
    return toMovementDto(row, null);
  });
}
