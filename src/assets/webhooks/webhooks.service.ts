// Webhook endpoints: configuration, the one-time secret, the test delivery and the
// delivery history. Delivery itself (fan-out from the outbox, attempts, retries)
// lives in webhooks.delivery.ts.
import { count, eq, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { assertVersion, invalid } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { visibleOutboxEnd } from "../../platform/db/pending.ts";
import { loadOr404, saveVersion } from "../../platform/db/records.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate, paginate } from "../../platform/paging/paging.ts";
import { encryptValue } from "../../platform/crypto/envelope.ts";
import type { EventKind } from "../../platform/outbox/outbox.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./webhooks.tables.ts";
import { checkWebhookUrl } from "./webhook-url.ts";
import { newSecret, webhookKey } from "./webhook-secret.ts";
import { attemptDelivery, failPendingDeliveries, type AttemptRow } from "./webhooks.delivery.ts";
import type { CreateWebhook, ListWebhookDeliveriesQuery, ListWebhooksQuery, ReplaceWebhook } from "./webhooks.schemas.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function toEndpointDto(r: EndpointRow) {
  return {
    id: r.id,
    url: r.url,
    events: r.events as EventKind[],
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    disabledAt: r.disabledAt,
    failingSince: r.failingSince,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

export function toAttemptDto(r: AttemptRow & { eventId: string; eventType: string }) {
  return {
    id: r.id,
    deliveryId: r.deliveryId,
    eventId: r.eventId,
    eventType: r.eventType as EventKind,
    attempt: r.attempt,
    recordedAt: r.recordedAt,
    statusCode: r.statusCode,
    durationMs: r.durationMs,
    outcome: r.outcome,
    error: r.error as "timeout" | "network" | "address_refused" | null,
    nextAttemptAt: r.nextAttemptAt,
  };
}

async function assertUrl(ctx: TenantCtx, url: string): Promise<void> {
  const verdict = await checkWebhookUrl(url, ctx.deps.config.webhookAllowPrivate, ctx.deps.resolveHost);
  if (!verdict.ok) throw invalid("/body/url", verdict.reason);
}

/** The outbox position now: an endpoint created or re-enabled now gets only the events after it. */
async function outboxEnd(ctx: TenantCtx): Promise<number> {
  const row = (await db(ctx).all<{ n: number }>(sql`SELECT ${visibleOutboxEnd} AS n`))[0];
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------- reads

export async function listWebhooks(ctx: RequestCtx, q: z.output<typeof ListWebhooksQuery>) {
  return listByUpdate(ctx, webhookEndpoints, q, new FilterSet(), toEndpointDto);
}

export async function listWebhookDeliveries(ctx: RequestCtx, endpointId: string, q: z.output<typeof ListWebhookDeliveriesQuery>) {
  await loadOr404(db(ctx), webhookEndpoints, endpointId, "webhook");
  const filters = new FilterSet().add("deliveryId", q.deliveryId, (v) => eq(webhookAttempts.deliveryId, v));
  return paginate(
    ctx,
    {
      // The endpoint is part of the route the cursor is bound to: a cursor of one endpoint's history is refused on another's.
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: webhookAttempts.recordedAt,
      orderId: webhookAttempts.id,
      where: filters.where(eq(webhookAttempts.endpointId, endpointId)),
      page: (qr, where, orderBy, limit) =>
        qr
          .select({ a: webhookAttempts, eventId: webhookDeliveries.eventId, eventType: webhookDeliveries.eventType })
          .from(webhookAttempts)
          .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
          .where(where)
          .orderBy(...orderBy)
          .limit(limit),
      count: (qr, where) => qr.select({ n: count() }).from(webhookAttempts).where(where),
      position: (r) => ({ t: r.a.recordedAt, i: r.a.id }),
    },
    (r) => toAttemptDto({ ...r.a, eventId: r.eventId, eventType: r.eventType }),
  );
}

// ---------------------------------------------------------------- commands

export async function createWebhook(ctx: RequestCtx, input: z.output<typeof CreateWebhook>) {
  const key = webhookKey(ctx);
  await assertUrl(ctx, input.url);
  const secret = newSecret();
  const row = await withTx(ctx, async (ctx) => {
    const meta = newRecordMeta(ctx);
    const enabled = input.enabled ?? true;
    const r: EndpointRow = {
      ...meta,
      url: input.url,
      events: input.events,
      enabled,
      // The endpoint id is bound into the ciphertext: a secret copied onto another endpoint does not decrypt.
      secretCiphertext: encryptValue(key, secret, meta.id),
      disabledReason: null,
      disabledAt: enabled ? null : ctx.nowIso,
      failingSince: null,
      outboxCursor: await outboxEnd(ctx),
    };
    await writer(ctx).insert(webhookEndpoints).values(r);
    return r;
  });
  return { ...toEndpointDto(row), secret };
}

/**
 * Replaces URL, event kinds and enabled. Enabling (again) needs the key, clears the
 * failure state and starts at the outbox's end; disabling fails what is still pending.
 */
export async function replaceWebhook(ctx: RequestCtx, id: string, input: z.output<typeof ReplaceWebhook>) {
  if (input.enabled) webhookKey(ctx);
  await assertUrl(ctx, input.url);
  return withTx(ctx, async (ctx) => {
    const row = await loadOr404(writer(ctx), webhookEndpoints, id, "webhook");
    assertVersion("webhook", row, input.expectedVersion);
    const change: Partial<EndpointRow> = {};
    if (input.url !== row.url) change.url = input.url;
    if (JSON.stringify(input.events) !== JSON.stringify(row.events)) change.events = input.events;
    if (input.enabled && !row.enabled) {
      Object.assign(change, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null, outboxCursor: await outboxEnd(ctx) });
    } else if (!input.enabled && row.enabled) {
      Object.assign(change, { enabled: false, disabledReason: null, disabledAt: ctx.nowIso });
      await failPendingDeliveries(ctx, id);
    }
    return toEndpointDto(await saveVersion(writer(ctx), webhookEndpoints, row, change, ctx.nowIso));
  });
}

/**
 * Sends one `webhook.test` delivery now, signed like any other, and answers with
 * its attempt. Single attempt: a test is not retried and does not change the
 * endpoint's failure state. Works on a disabled endpoint (to check it before enabling).
 */
export async function testWebhook(ctx: RequestCtx, id: string) {
  const key = webhookKey(ctx);
  const { endpoint, delivery } = await withTx(ctx, async (ctx) => {
    const endpoint = await loadOr404(writer(ctx), webhookEndpoints, id, "webhook");
    const eventId = ctx.deps.newId();
    const body = JSON.stringify({
      id: eventId,
      type: "webhook.test",
      partnerId: ctx.partnerId,
      occurredAt: ctx.nowIso,
      data: { endpointId: endpoint.id, requestedBy: ctx.actorId },
    });
    const delivery: typeof webhookDeliveries.$inferSelect = {
      id: ctx.deps.newId(),
      endpointId: endpoint.id,
      eventId,
      eventType: "webhook.test",
      outboxSeq: null,
      body,
      status: "pending",
      attempts: 0,
      nextAttemptAt: ctx.nowIso,
      createdAt: ctx.nowIso,
      updatedAt: ctx.nowIso,
    };
    await writer(ctx).insert(webhookDeliveries).values(delivery);
    return { endpoint, delivery };
  });
  const attempt = await attemptDelivery(ctx, key, endpoint, delivery, { test: true });
  return toAttemptDto({ ...attempt, eventId: delivery.eventId, eventType: delivery.eventType });
}
