// Reading and correcting the movement chronology (GET /movements, GET /movements/{id},
// POST /movements/{id}/correct). The log itself and its one insert path are the
// kernel's (kernel/movements.ts); a correction is a new row, never an edit.
import { and, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { countLessPending, visibleRows } from "../../platform/db/pending.ts";
import { AppError, invalid, notFound } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, type Querier } from "../../platform/db/transactions.ts";
import { FilterSet, paginate, type Page } from "../../platform/paging/paging.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { movements } from "../kernel/kernel.tables.ts";
import { changeItem, findItem } from "../kernel/index.ts";
import { moveContents } from "../kernel/index.ts";
import { recordMovement, toMovementDto, type MovementDto, type MovementRow } from "../kernel/index.ts";
import { locationExists, requireLocation } from "../locations/index.ts";
import { partyExists } from "../parties/index.ts";
import type { CorrectMovement, ListMovementsQuery } from "./movements.schemas.ts";

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
  return q.select(withCorrectedBy).from(movements).where(and(where, visibleRows(movements))).orderBy(...orderBy).limit(limit);
}

/**
 * Count query of the chronology (exported for the query-plan test): less the movements of an
 * import still being applied, subtracted so the count keeps its covering index (as registerCount).
 */
export function movementsCount(q: Querier, where: SQL | undefined) {
  return q.select({ n: countLessPending(movements, "movements_pending_idx", where) }).from(movements).where(where);
}

/** GET /movements: the chronology, (recordedAt, id) descending; from/to bound eventTime as [from, to). */
export async function listMovements(ctx: RequestCtx, q: ListMovementsQuery): Promise<Page<MovementDto>> {
  if (q.from && q.to && q.from >= q.to) throw invalid("/query/to", "must be after from");
  const { filters, where } = movementFilters(q);
  return paginate(
    ctx,
    {
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
  const row = (await db(ctx).select(withCorrectedBy).from(movements).where(and(eq(movements.id, id), visibleRows(movements))))[0];
  if (!row) throw notFound("movement");
  return toLinkedDto(row);
}

/** 400 with the body path when a corrected reference does not exist. */
async function assertReferences(ctx: RequestCtx, input: CorrectMovement): Promise<void> {
  if (input.locationId && !(await locationExists(ctx, input.locationId))) throw invalid("/body/locationId", "unknown location");
  if (input.holder) {
    const { kind, id } = input.holder;
    // A member who has since left still held the item then: any membership counts.
    const found =
      kind === "user"
        ? (await db(ctx).select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, id))).length > 0
        : kind === "party"
          ? await partyExists(ctx, id)
          : await locationExists(ctx, id);
    if (!found) throw invalid("/body/holder/id", `unknown ${kind === "user" ? "member" : kind}`);
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
async function currentLocationMovementId(ctx: RequestCtx, itemId: string): Promise<string | null> {
  const rows = await db(ctx)
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
  return withTx(ctx, async (ctx) => {
    await assertReferences(ctx, input);
    const tx = db(ctx);
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
    if (newLocation !== undefined && movedIt && (await currentLocationMovementId(ctx, original.itemId)) === original.id) {
      const item = await findItem(ctx, original.itemId);
      if (item && item.containerId === null && item.locationId === original.toLocationId) {
        appliedToItem = true;
        if (item.locationId !== newLocation) {
          // The item lands there now, so the place must be usable as for a move (not archived).
          await requireLocation(ctx, newLocation, "/body/locationId");
          await changeItem(ctx, item.id, { locationId: newLocation });
          // Contents follow their container, as on a move: one `moved` movement each.
          await moveContents(ctx, item.id, newLocation, { reason: "its container's location was corrected", data: { correctionOf: original.id } });
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
    const row = await recordMovement(ctx, {
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
