// The movement log: every step of an item's story (physical events and the
// custody and identity steps around them) appends one immutable row through
// recordMovement, in the open transaction; kinds with a contract §10 event also
// append that outbox event. Nothing ever updates a movement.
import { writer } from "../../platform/db/transactions.ts";
import { insertRow } from "../../platform/db/prepared.ts";
import { pendingImportOf } from "../../platform/db/pending.ts";
import { appendEvent, type EventKind } from "../../platform/outbox/outbox.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { movements } from "./kernel.tables.ts";
import { EVENT_OF, type MovementKind } from "./movement.schemas.ts";

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

/**
 * The one insert path of the chronology: appends a movement in the open
 * transaction, recorded by the context's actor (the token's subject, or `system`
 * for a job) at its time. Only the contract §10 kinds (registered, moved, consumed,
 * checked_out, transferred, returned, corrected) also append their outbox event;
 * the other steps are chronology only.
 */
export async function recordMovement(ctx: TenantCtx, input: MovementInput): Promise<MovementRow> {
  const row: MovementRow = {
    id: ctx.deps.newId(),
    itemId: input.itemId,
    kind: input.kind,
    eventTime: input.eventTime ?? ctx.nowIso,
    recordedAt: ctx.nowIso,
    actorId: ctx.actorId,
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
    pendingImportId: pendingImportOf(ctx),
  };
  await insertRow(writer(ctx), movements, row);
  const kind = eventOf(input.kind);
  if (kind) await appendEvent(ctx, { kind, aggregateId: input.itemId, occurredAt: row.eventTime, data: { movement: toMovementDto(row) } });
  return row;
}
