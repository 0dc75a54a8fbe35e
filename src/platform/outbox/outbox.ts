// Domain events, written with the change they describe: the contract §10 kinds (webhooks
// deliver them), plus kinds only the live event streams carry (src/platform/events).
import { afterCommit, txScoped, writer } from "../db/transactions.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import { outbox } from "./outbox.tables.ts";
import { insertRow } from "../db/prepared.ts";
import { pendingImportOf } from "../db/pending.ts";

/** The contract §10 kinds: what webhook endpoints may subscribe to. */
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

/**
 * Kinds beyond contract §10, carried by the live event streams only (GET …/events/stream):
 * webhook endpoints subscribe to §10 kinds alone, and their fan-out takes only the kinds an
 * endpoint subscribed to, so these never reach a webhook. Their data names the record and its
 * new state, nothing more: a client reads the record itself through the API.
 */
export const STREAM_KINDS = [
  "item.changed",
  "hub.task.changed",
  "alert.changed",
  "workflow_case.changed",
  "policy.changed",
  "audit.changed",
  "evidence.changed",
  "planning.project.changed",
  "planning.record.changed",
  "planning.dependency.changed",
  "planning.change_set.changed",
  "planning.meeting.changed",
] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];
export type OutboxKind = EventKind | StreamKind;

const NOTIFIED = Symbol("outbox.notified");

/** Appends one event in the caller's transaction; returns its id. Once it commits, the partner's live streams are told. */
export async function appendEvent(
  ctx: TenantCtx,
  event: { kind: OutboxKind; aggregateId: string; occurredAt: string; data: Record<string, unknown> },
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
    // An import still being applied: invisible to the outbox's readers until the import's last transaction.
    pendingImportId: pendingImportOf(ctx),
  });
  // One notification per transaction, however many events it wrote.
  // (A Set: a savepoint works on its own copy, so a rolled-back one drops its notification and its mark together.)
  const notified = txScoped(ctx, NOTIFIED, () => new Set<string>());
  if (!notified.has(ctx.partnerId)) {
    notified.add(ctx.partnerId);
    const events = ctx.deps.events;
    afterCommit(ctx, () => events.notify(ctx.partnerId));
  }
  return id;
}
