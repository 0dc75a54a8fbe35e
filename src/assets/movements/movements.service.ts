// The movement chronology: every physical event appends one immutable row and one
// outbox event in the caller's transaction. Nothing here ever updates a movement.
import type { Querier, RequestCtx } from "../../platform/http/context.ts";
import { appendEvent, type EventKind } from "../../platform/outbox/outbox.ts";
import { movements } from "./movements.tables.ts";

export const MOVEMENT_KINDS = ["registered", "moved", "consumed", "checked_out", "transferred", "returned", "corrected"] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

const EVENT_OF: Record<MovementKind, EventKind> = {
  registered: "asset.created",
  moved: "asset.moved",
  consumed: "asset.consumed",
  checked_out: "custody.checked_out",
  transferred: "custody.transferred",
  returned: "custody.returned",
  corrected: "movement.corrected",
};

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

/** Appends a movement and its outbox event; the actor is always the token's subject. */
export async function recordMovement(ctx: RequestCtx, tx: Querier, input: MovementInput): Promise<MovementRow> {
  const row: MovementRow = {
    id: ctx.deps.newId(),
    itemId: input.itemId,
    kind: input.kind,
    eventTime: input.eventTime ?? ctx.nowIso,
    recordedAt: ctx.nowIso,
    actorId: ctx.userId,
    readPointId: input.readPointId ?? input.bizLocationId ?? null,
    bizLocationId: input.bizLocationId ?? null,
    fromLocationId: input.fromLocationId ?? null,
    toLocationId: input.toLocationId ?? null,
    fromContainerId: input.fromContainerId ?? null,
    toContainerId: input.toContainerId ?? null,
    holderKind: input.holder?.kind ?? null,
    holderId: input.holder?.id ?? null,
    quantity: input.quantity ?? null,
    checkoutId: input.checkoutId ?? null,
    correctsId: input.correctsId ?? null,
    reason: input.reason ?? null,
    data: input.data ?? {},
  };
  await tx.insert(movements).values(row);
  await appendEvent(ctx, tx, {
    kind: EVENT_OF[input.kind],
    aggregateId: input.itemId,
    occurredAt: row.eventTime,
    data: { movement: toMovementDto(row) },
  });
  return row;
}
