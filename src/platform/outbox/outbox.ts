// Domain events for webhooks (contract §10), written with the change they describe.
import { writer } from "../db/transactions.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import { outbox } from "./outbox.tables.ts";
import { insertRow } from "../db/prepared.ts";

export const EVENT_KINDS = [
  "asset.created",
  "asset.moved",
  "asset.consumed",
  "custody.checked_out",
  "custody.transferred",
  "custody.returned",
  "shipment.dispatched",
  "shipment.handed_off",
  "shipment.received",
  "shipment.exception",
  "container.packed",
  "container.unpacked",
  "movement.corrected",
  "webhook.test",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Appends one event in the caller's transaction; returns its id. */
export async function appendEvent(
  ctx: TenantCtx,
  event: { kind: EventKind; aggregateId: string; occurredAt: string; data: Record<string, unknown> },
): Promise<string> {
  const id = ctx.deps.newId();
  await insertRow(writer(ctx), outbox, {
    id,
    kind: event.kind,
    aggregateId: event.aggregateId,
    payload: { id, type: event.kind, partnerId: ctx.partnerId, occurredAt: event.occurredAt, data: event.data },
    occurredAt: event.occurredAt,
    createdAt: ctx.nowIso,
    // Not in the payload: that is the signed body; the delivery sends it as its traceparent header.
    traceId: ctx.traceId ?? null,
  });
  return id;
}
