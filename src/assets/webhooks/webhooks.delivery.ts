// Delivery from the durable outbox (contract §10). Each pass:
//  1. fan-out: for each enabled endpoint, the outbox events after its cursor (the
//     outbox rowid, i.e. commit order) become one delivery each for the kinds it
//     subscribes to, and the cursor advances, in one transaction;
//  2. attempts: per endpoint, the oldest pending delivery is sent when due; only
//     after it succeeds (or finally fails) does the next one go, so one endpoint
//     sees events in order. Endpoints are worked on concurrently;
//  3. retention: finished deliveries and their attempts older than 30 days go.
// Nothing is lost between a movement's commit and its delivery: the outbox row is
// committed with the movement, and the cursor only moves in the transaction that
// writes the deliveries. A crash after sending but before recording sends the same
// delivery (same id) again; receivers reject replayed delivery ids.
import { and, asc, eq, inArray, isNotNull, lt, ne, sql } from "drizzle-orm";
import { decryptValue } from "../../platform/crypto/envelope.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { visibleOutboxEnd, visibleRows } from "../../platform/db/pending.ts";
import { saveVersion } from "../../platform/db/records.ts";
import { errorFacts } from "../../platform/errors/app-error.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { raiseAlert, webhookFailingCondition } from "../alerts/index.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./webhooks.tables.ts";
import { checkWebhookUrl, pinnedTarget } from "./webhook-url.ts";
import { signatureOf, webhookKeyOrNull } from "./webhook-secret.ts";
import { isTraceId, newTraceId, traceparentFor } from "../../platform/http/trace-context.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Waits after the 1st…7th failed attempt; the 8th failure is final (`failed`). */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const DELIVERY_TIMEOUT_MS = 10 * SECOND;
/** An endpoint whose every attempt failed for this long is disabled and a `webhook_failing` alert raised. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;
export const HISTORY_RETENTION_MS = 30 * DAY;
/** A Retry-After longer than this is not believed. */
const MAX_RETRY_AFTER_MS = DAY;
const FANOUT_BATCH = 500;
const ATTEMPTS_PER_ENDPOINT_PER_PASS = 100;

type SendError = "timeout" | "network" | "address_refused";
interface SendResult {
  statusCode: number | null;
  error: SendError | null;
  durationMs: number;
  retryAfterMs: number | null;
}

// ---------------------------------------------------------------- the pass

export interface DeliveryPassResult {
  fannedOut: number;
  attempted: number;
  succeeded: number;
  purged: number;
  keyConfigured: boolean;
}

export async function deliverWebhooks(ctx: TenantCtx, signal?: AbortSignal): Promise<DeliveryPassResult> {
  const fannedOut = await fanOut(ctx);
  const key = webhookKeyOrNull(ctx);
  let attempted = 0;
  let succeeded = 0;
  if (key) {
    const endpoints = await db(ctx).select().from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
    const results = await Promise.all(
      endpoints.map((e) =>
        drainEndpoint(ctx, key, e, signal).catch((err: unknown) => {
          // One endpoint's trouble (a decryption failure after a key change) must not stop the others.
          ctx.deps.log.error("webhook endpoint pass failed", { partnerId: ctx.partnerId, endpointId: e.id, ...errorFacts(err) });
          return { attempted: 0, succeeded: 0 };
        }),
      ),
    );
    for (const r of results) {
      attempted += r.attempted;
      succeeded += r.succeeded;
    }
  }
  const purged = await purgeHistory(ctx);
  return { fannedOut, attempted, succeeded, purged, keyConfigured: key !== null };
}

/**
 * The delivery job's probe (reads only): now when an enabled endpoint's cursor is behind
 * the outbox; else the earliest next attempt of an enabled endpoint's head delivery (when
 * the encryption key is configured: without it nothing is sent) and the earliest end of
 * retention of a finished delivery; null when none of these exists.
 */
export async function webhooksDueAt(ctx: TenantCtx): Promise<string | null> {
  const q = db(ctx);
  const endpoints = await q.select({ id: webhookEndpoints.id, cursor: webhookEndpoints.outboxCursor }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
  const times: string[] = [];
  if (endpoints.length > 0) {
    const last = Number((await q.all<{ seq: number }>(sql`SELECT ${visibleOutboxEnd} AS seq`))[0]?.seq ?? 0);
    if (endpoints.some((e) => e.cursor < last)) return ctx.nowIso;
    if (webhookKeyOrNull(ctx)) {
      for (const e of endpoints) {
        const head = (
          await q
            .select({ nextAttemptAt: webhookDeliveries.nextAttemptAt })
            .from(webhookDeliveries)
            .where(and(eq(webhookDeliveries.endpointId, e.id), eq(webhookDeliveries.status, "pending"), isNotNull(webhookDeliveries.outboxSeq)))
            .orderBy(asc(webhookDeliveries.outboxSeq))
            .limit(1)
        )[0];
        if (head) times.push(head.nextAttemptAt ?? ctx.nowIso);
      }
    }
  }
  for (const status of ["succeeded", "failed"] as const) {
    const oldest = (await q.select({ at: webhookDeliveries.updatedAt }).from(webhookDeliveries).where(eq(webhookDeliveries.status, status)).orderBy(asc(webhookDeliveries.updatedAt)).limit(1))[0]?.at;
    if (oldest) times.push(new Date(Date.parse(oldest) + HISTORY_RETENTION_MS + 1).toISOString());
  }
  return times.sort()[0] ?? null;
}

/** Turns the outbox events after each enabled endpoint's cursor into its deliveries. */
export async function fanOut(ctx: TenantCtx): Promise<number> {
  const endpoints = await db(ctx).select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
  let created = 0;
  for (const { id } of endpoints) {
    for (;;) {
      const { scanned, inserted } = await withTx(ctx, async (ctx) => {
        const tx = writer(ctx);
        // Re-read in the transaction: a PUT may have disabled it or moved its cursor meanwhile.
        const e = (await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];
        if (!e || !e.enabled) return { scanned: 0, inserted: 0 };
        const events = await tx
          .select({ seq: sql<number>`"outbox"."rowid"`, id: outbox.id, kind: outbox.kind, payload: outbox.payload, visible: sql<number>`${visibleRows(outbox)}` })
          .from(outbox)
          // Never past an event of an import still being applied: it turns visible later, behind the cursor otherwise.
          .where(sql`"outbox"."rowid" > ${e.outboxCursor} and "outbox"."rowid" <= ${visibleOutboxEnd}`)
          .orderBy(sql`"outbox"."rowid"`)
          .limit(FANOUT_BATCH);
        if (events.length === 0) return { scanned: 0, inserted: 0 };
        const wanted = new Set(e.events);
        const rows = events
          // An abandoned import's events are passed, never delivered (they are deleted when it is taken over).
          .filter((ev) => Number(ev.visible) === 1 && wanted.has(ev.kind))
          .map(
            (ev): DeliveryRow => ({
              id: ctx.deps.newId(),
              endpointId: e.id,
              eventId: ev.id,
              eventType: ev.kind,
              outboxSeq: Number(ev.seq),
              // The outbox payload is the body ({ id, type, partnerId, occurredAt, data }); these bytes are signed and sent on every attempt.
              body: JSON.stringify(ev.payload),
              status: "pending",
              attempts: 0,
              nextAttemptAt: ctx.nowIso,
              createdAt: ctx.nowIso,
              updatedAt: ctx.nowIso,
            }),
          );
        if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
        await tx
          .update(webhookEndpoints)
          .set({ outboxCursor: Number(events[events.length - 1]!.seq) })
          .where(eq(webhookEndpoints.id, e.id));
        return { scanned: events.length, inserted: rows.length };
      });
      created += inserted;
      if (scanned < FANOUT_BATCH) break;
    }
  }
  return created;
}

/** Sends an endpoint's due deliveries oldest first, stopping at the first that does not succeed. */
async function drainEndpoint(ctx: TenantCtx, key: Uint8Array, endpoint: EndpointRow, signal?: AbortSignal) {
  let attempted = 0;
  let succeeded = 0;
  while (attempted < ATTEMPTS_PER_ENDPOINT_PER_PASS && !signal?.aborted) {
    const head = (
      await db(ctx)
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, "pending"), isNotNull(webhookDeliveries.outboxSeq)))
        .orderBy(asc(webhookDeliveries.outboxSeq))
        .limit(1)
    )[0];
    if (!head || (head.nextAttemptAt !== null && head.nextAttemptAt > ctx.nowIso)) break;
    const attempt = await attemptDelivery(ctx, key, endpoint, head, { test: false });
    attempted++;
    if (attempt.outcome !== "succeeded") break;
    succeeded++;
  }
  return { attempted, succeeded };
}

// ---------------------------------------------------------------- one attempt

/** Sends a delivery once, signed, and records the attempt and its consequences. */
export async function attemptDelivery(
  ctx: TenantCtx,
  key: Uint8Array,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  opts: { test: boolean },
): Promise<AttemptRow> {
  const secret = decryptValue(key, endpoint.secretCiphertext, endpoint.id);
  const sent = await send(ctx, endpoint.url, delivery, secret);
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const now = ctx.now.getTime();
    const n = delivery.attempts + 1;
    const ok = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300;
    const current = (await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)))[0] ?? endpoint;
    // A PUT may have disabled the endpoint (and failed its deliveries) while this attempt was in flight.
    const stillPending = (await tx.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]?.status === "pending";

    let outcome: AttemptRow["outcome"];
    let nextAttemptAt: string | null = null;
    if (ok) {
      outcome = "succeeded";
      if (!opts.test && current.failingSince !== null) await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, current.id));
    } else if (opts.test || !stillPending || !current.enabled) {
      // A test reports; it is not retried and leaves the endpoint's state alone. Nor is anything retried for a disabled endpoint.
      outcome = "failed";
    } else if (sent.statusCode === 410) {
      outcome = "failed";
      await disableEndpoint(ctx, current, "gone", delivery.id);
    } else {
      const failingSince = current.failingSince ?? ctx.nowIso;
      if (now - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
        outcome = "failed";
        await disableEndpoint(ctx, { ...current, failingSince }, "failing", delivery.id);
      } else {
        if (current.failingSince === null) await tx.update(webhookEndpoints).set({ failingSince }).where(eq(webhookEndpoints.id, current.id));
        const delay = RETRY_DELAYS_MS[n - 1];
        if (delay === undefined) {
          outcome = "failed";
        } else {
          outcome = "retrying";
          nextAttemptAt = new Date(now + Math.max(delay, sent.retryAfterMs ?? 0)).toISOString();
        }
      }
    }

    const attempt: AttemptRow = {
      id: ctx.deps.newId(),
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      attempt: n,
      recordedAt: ctx.nowIso,
      statusCode: sent.statusCode,
      durationMs: sent.durationMs,
      outcome,
      error: sent.error,
      nextAttemptAt,
    };
    await tx.insert(webhookAttempts).values(attempt);
    await tx
      .update(webhookDeliveries)
      .set({ status: outcome === "retrying" ? "pending" : outcome, attempts: n, nextAttemptAt, updatedAt: ctx.nowIso })
      .where(and(eq(webhookDeliveries.id, delivery.id), stillPending ? undefined : eq(webhookDeliveries.status, "pending")));
    return attempt;
  });
}

async function send(ctx: TenantCtx, url: string, delivery: DeliveryRow, secret: string): Promise<SendResult> {
  // Checked again at every attempt: the name may have been re-pointed since the endpoint was saved.
  const verdict = await checkWebhookUrl(url, ctx.deps.config.webhookAllowPrivate, ctx.deps.resolveHost);
  if (!verdict.ok) return { statusCode: null, error: "address_refused", durationMs: 0, retryAfterMs: null };
  // The connection goes to the first address of the answer just checked, not to whatever a second
  // lookup would say (DNS rebinding): the URL carries that address, the Host header and, for https,
  // the TLS server name (SNI, and the name the certificate is verified against) keep the URL's name.
  const target = pinnedTarget(url, verdict.addresses[0]!);
  const traceparent = await deliveryTraceparent(ctx, delivery);
  const timestamp = Math.floor(ctx.deps.clock.now().getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await ctx.deps.fetch(target.url, {
      method: "POST",
      headers: {
        Host: target.host,
        "Content-Type": "application/json",
        "User-Agent": "svc-ams-webhooks/1",
        "X-SVC-AMS-Delivery": delivery.id,
        "X-SVC-AMS-Event": delivery.eventType,
        "X-SVC-AMS-Timestamp": String(timestamp),
        "X-SVC-AMS-Signature": signatureOf(secret, timestamp, delivery.id, delivery.body),
        traceparent,
      },
      body: delivery.body,
      // A redirect is an answer (non-2xx), never followed: it could lead to an address refused above.
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      ...(target.serverName ? { tls: { serverName: target.serverName } } : {}),
    });
    const durationMs = elapsed();
    const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get("retry-after"), ctx.deps.clock.now()) : null;
    // The body is not read: only the status counts.
    await res.body?.cancel().catch(() => undefined);
    return { statusCode: res.status, error: null, durationMs, retryAfterMs };
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    return { statusCode: null, error: name === "TimeoutError" || name === "AbortError" ? "timeout" : "network", durationMs: elapsed(), retryAfterMs: null };
  }
}

/**
 * W3C `traceparent` of an attempt, a new span each time: in the trace of the request that
 * wrote the event (kept with the outbox row), or of the request sending a test delivery;
 * otherwise a trace of the delivery's own, its id taken from the delivery id, so every
 * attempt of one delivery is in one trace. Not signed: it is not part of the body.
 */
async function deliveryTraceparent(ctx: TenantCtx, delivery: DeliveryRow): Promise<string> {
  if (delivery.outboxSeq !== null) {
    const traceId = (await db(ctx).select({ traceId: outbox.traceId }).from(outbox).where(eq(outbox.id, delivery.eventId)))[0]?.traceId;
    if (isTraceId(traceId)) return traceparentFor(traceId, true);
  } else if (isTraceId(ctx.traceId)) {
    return traceparentFor(ctx.traceId, true);
  }
  const own = delivery.id.replaceAll("-", "");
  return traceparentFor(isTraceId(own) ? own : newTraceId(), false);
}

/** Retry-After as delta-seconds or an HTTP date, in ms from now; null when absent or unusable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : null;
}

// ---------------------------------------------------------------- endpoint state

/** Fails every pending delivery of an endpoint (it was disabled): nothing is sent to it any more. */
export async function failPendingDeliveries(ctx: TenantCtx, endpointId: string, exceptId?: string): Promise<void> {
  await writer(ctx)
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, updatedAt: ctx.nowIso })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending"), exceptId ? ne(webhookDeliveries.id, exceptId) : undefined));
}

async function disableEndpoint(ctx: TenantCtx, endpoint: EndpointRow, reason: "gone" | "failing", currentDeliveryId: string): Promise<void> {
  await saveVersion(
    writer(ctx),
    webhookEndpoints,
    endpoint,
    { enabled: false, disabledReason: reason, disabledAt: ctx.nowIso, failingSince: endpoint.failingSince },
    ctx.nowIso,
  );
  await failPendingDeliveries(ctx, endpoint.id, currentDeliveryId);
  if (reason === "failing") await raiseAlert(ctx, webhookFailingCondition(endpoint.id, ctx.nowIso, endpoint.failingSince));
  ctx.deps.log.warn("webhook endpoint disabled", { partnerId: ctx.partnerId, endpointId: endpoint.id, reason });
}

/** Drops finished deliveries (and their attempts) last changed more than 30 days ago. */
export async function purgeHistory(ctx: TenantCtx): Promise<number> {
  const cutoff = new Date(ctx.now.getTime() - HISTORY_RETENTION_MS).toISOString();
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const old = tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.status, ["succeeded", "failed"]), lt(webhookDeliveries.updatedAt, cutoff)));
    await tx.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, old));
    const r = await tx
      .delete(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.status, ["succeeded", "failed"]), lt(webhookDeliveries.updatedAt, cutoff)));
    return r.rowsAffected;
  });
}
