// Delivery under a fake clock: the delivery job runs once per tick (runJob), as the
// scheduler would run it every minute. Retries follow contract §10 (5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h, then failed); one endpoint sees events in order;
// nothing committed is lost when the process dies before delivering.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { startReceiver, verifySignature, type Receiver } from "../../../test/fakes/webhook-receiver.ts";
import { runJob } from "../../jobs/run-job.ts";
import { webhookDeliveryJob } from "../../jobs/webhook-delivery.job.ts";
import { alertsJob } from "../../jobs/alerts.job.ts";
import { webhookDeliveries } from "./webhooks.tables.ts";
import { RETRY_DELAYS_MS } from "./webhooks.delivery.ts";

const clock = new MutableClock(new Date("2030-05-06T08:00:00.000Z"));
const KEY = randomBytes(32).toString("base64");
const VARS = { AMS_WEBHOOK_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: "1" };
const env = await createTestEnv(VARS, { clock });
const receivers: Receiver[] = [];
afterAll(() => {
  for (const r of receivers) r.stop();
  env.close();
});

let seq = 0;
async function partner() {
  return partnerKit({ env, partnerId: `wd-${++seq}`, users: { ada: "admin" } });
}
function receiver(...args: Parameters<typeof startReceiver>) {
  const r = startReceiver(...args);
  receivers.push(r);
  return r;
}
const deliver = (partnerId: string, e = env) => runJob(e.deps, webhookDeliveryJob, { partnerId });
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

type Api = Awaited<ReturnType<typeof partner>>;
async function checkout(api: Api) {
  const item = await api.seed.activeAsset();
  return api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "ada" }, dueAt: new Date(clock.now().getTime() + 7 * 86_400_000).toISOString() });
}

describe("retries", () => {
  test("500, 500, 200: three attempts 5 s and 5 min apart, one delivery id, each signed afresh", async () => {
    const api = await partner();
    const rx = receiver({ script: [500, 500, 200] });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout(api);
    const t0 = clock.now().getTime();
    const sentAt: number[] = [];
    const tick = async (ms: number) => {
      clock.advance(ms);
      const before = rx.received.length;
      await deliver(api.partnerId);
      if (rx.received.length > before) sentAt.push(clock.now().getTime() - t0);
    };

    await tick(0); // attempt 1 → 500
    await tick(4 * S); // not yet due
    await tick(1 * S); // 5 s after: attempt 2 → 500
    await tick(4 * MIN + 59 * S); // not yet due
    await tick(1 * S); // 5 min after: attempt 3 → 200
    await tick(10 * H); // nothing more
    expect(sentAt).toEqual([0, 5 * S, 5 * S + 5 * MIN]);
    expect(rx.received).toHaveLength(3);

    const ids = new Set(rx.received.map((r) => r.deliveryId));
    expect(ids.size).toBe(1);
    expect(rx.received.map((r) => Number(r.timestamp) * 1000 - Math.floor(t0 / 1000) * 1000)).toEqual([0, 5 * S, 5 * S + 5 * MIN]);
    for (const r of rx.received) expect(verifySignature(hook.secret, r)).toBe(true);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1); // the same bytes every time

    const history = await api.get(`/webhooks/${hook.id}/deliveries`);
    expect(history.body.items.map((a: any) => [a.attempt, a.statusCode, a.outcome, a.nextAttemptAt])).toEqual([
      [3, 200, "succeeded", null],
      [2, 500, "retrying", new Date(t0 + 5 * S + 5 * MIN).toISOString()],
      [1, 500, "retrying", new Date(t0 + 5 * S).toISOString()],
    ]);
    expect(new Set(history.body.items.map((a: any) => a.deliveryId))).toEqual(ids);
    // A failure streak ends with the success.
    expect((await api.get("/webhooks")).body.items[0].failingSince).toBeNull();
  });

  test("a replayed delivery id is the receiver's to reject: work done once, though the service retried", async () => {
    const api = await partner();
    const processed: string[] = [];
    const seen = new Set<string>();
    let calls = 0;
    // Durably received, then the answer is lost (a 502 from its proxy): the service must retry, the receiver must dedupe.
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        calls++;
        const id = req.headers.get("x-svc-ams-delivery")!;
        await req.text();
        if (seen.has(id)) return new Response("duplicate", { status: 200 });
        seen.add(id);
        processed.push(id);
        return new Response("lost", { status: 502 });
      },
    });
    try {
      await api.create("/webhooks", { url: `http://127.0.0.1:${server.port}/in`, events: ["custody.checked_out"] });
      await checkout(api);
      await deliver(api.partnerId);
      clock.advance(5 * S);
      await deliver(api.partnerId);
      expect(calls).toBe(2);
      expect(processed).toHaveLength(1);
      const [d] = await api.read((q) => q.select().from(webhookDeliveries));
      expect(d).toMatchObject({ id: processed[0], status: "succeeded", attempts: 2 });
    } finally {
      server.stop(true);
    }
  });

  test("after the eighth failure the delivery is failed, and the next event goes", async () => {
    const api = await partner();
    const rx = receiver({ fallback: 500 });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout(api);
    await checkout(api);
    await deliver(api.partnerId);
    for (const wait of RETRY_DELAYS_MS) {
      clock.advance(wait);
      await deliver(api.partnerId);
    }
    const first = rx.received[0]!.deliveryId;
    expect(rx.received.filter((r) => r.deliveryId === first)).toHaveLength(8);
    const history = (await api.get(`/webhooks/${hook.id}/deliveries`, { query: { deliveryId: first, limit: 200 } })).body;
    expect(history.total).toBe(8);
    expect(history.items[0]).toMatchObject({ attempt: 8, outcome: "failed", nextAttemptAt: null });
    // Only now does the second event go out: order is kept.
    expect(rx.received.filter((r) => r.deliveryId !== first)).toHaveLength(0);
    clock.advance(MIN);
    await deliver(api.partnerId);
    expect(rx.received.at(-1)!.deliveryId).not.toBe(first);
    expect(rx.received.at(-1)!.json.occurredAt > rx.received[0]!.json.occurredAt || rx.received.at(-1)!.json.id > rx.received[0]!.json.id).toBe(true);
  });
});

describe("order, Retry-After and 410", () => {
  test("a 503 with Retry-After holds the endpoint's queue that long; later events wait behind it, in order", async () => {
    const api = await partner();
    const rx = receiver({ script: [{ status: 503, headers: { "Retry-After": "120" } }] });
    await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out", "asset.moved"] });
    const a = await checkout(api);
    const b = await checkout(api);
    const t0 = clock.now().getTime();
    await deliver(api.partnerId); // a → 503
    clock.advance(5 * S);
    await deliver(api.partnerId); // the 5 s step is overridden by Retry-After: nothing
    clock.advance(114 * S);
    await deliver(api.partnerId);
    expect(rx.received).toHaveLength(1);
    clock.advance(1 * S); // 120 s after the 503
    await deliver(api.partnerId);
    expect(clock.now().getTime() - t0).toBe(120 * S);
    expect(rx.received.map((r) => r.json.data.movement.checkoutId)).toEqual([a.id, a.id, b.id]);
  });

  test("a 429 with an HTTP-date Retry-After is honoured too", async () => {
    const api = await partner();
    const until = new Date(clock.now().getTime() + 10 * MIN);
    const rx = receiver({ script: [{ status: 429, headers: { "Retry-After": until.toUTCString() } }] });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout(api);
    await deliver(api.partnerId);
    const [attempt] = (await api.get(`/webhooks/${hook.id}/deliveries`)).body.items;
    expect(attempt).toMatchObject({ statusCode: 429, outcome: "retrying" });
    expect(Date.parse(attempt.nextAttemptAt)).toBe(Math.floor(until.getTime() / 1000) * 1000);
  });

  test("a 410 disables the endpoint and fails what is pending for it", async () => {
    const api = await partner();
    const rx = receiver({ script: [410] });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout(api);
    await checkout(api);
    await deliver(api.partnerId);
    const endpoint = (await api.get("/webhooks")).body.items[0];
    expect(endpoint).toMatchObject({ id: hook.id, enabled: false, disabledReason: "gone", disabledAt: clock.now().toISOString(), version: 2 });
    const rows = await api.read((q) => q.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id)));
    expect(rows.map((r) => r.status).sort()).toEqual(["failed", "failed"]);
    clock.advance(H);
    await checkout(api);
    await deliver(api.partnerId);
    expect(rx.received).toHaveLength(1);
  });
});

describe("an endpoint failing every attempt for 5 days", () => {
  test("is disabled, a webhook_failing alert is raised; re-enabling resolves it at the next alerts run", async () => {
    const api = await partner();
    const rx = receiver({ fallback: 503 });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    for (let i = 0; i < 4; i++) await checkout(api);
    const t0 = clock.now().getTime();
    let disabledAfter = -1;
    for (let h = 0; h <= 6 * 24; h++) {
      await deliver(api.partnerId);
      const e = (await api.get("/webhooks")).body.items[0];
      if (!e.enabled) {
        disabledAfter = clock.now().getTime() - t0;
        expect(e).toMatchObject({ disabledReason: "failing", failingSince: new Date(t0).toISOString() });
        break;
      }
      clock.advance(H);
    }
    // Disabled at the first failed attempt 5 days after the first failure, not before.
    expect(disabledAfter).toBeGreaterThanOrEqual(5 * 24 * H);
    expect(disabledAfter).toBeLessThan(5 * 24 * H + 11 * H);
    const sent = rx.received.length;
    const alerts = (await api.get("/alerts", { query: { kind: "webhook_failing" } })).body;
    expect(alerts.items).toHaveLength(1);
    expect(alerts.items[0]).toMatchObject({ status: "open", subject: { type: "webhook", id: hook.id } });

    // The alerts job keeps it while the endpoint stays disabled…
    await runJob(env.deps, alertsJob, { partnerId: api.partnerId });
    expect((await api.get("/alerts", { query: { kind: "webhook_failing", status: "open" } })).body.total).toBe(1);
    clock.advance(H);
    await deliver(api.partnerId);
    expect(rx.received).toHaveLength(sent); // nothing goes to a disabled endpoint

    // …and resolves it once an administrator enables it again.
    rx.fallback = 200;
    const on = await api.put(`/webhooks/${hook.id}`, { url: rx.url, events: ["custody.checked_out"], enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await runJob(env.deps, alertsJob, { partnerId: api.partnerId });
    expect((await api.get("/alerts", { query: { kind: "webhook_failing" } })).body.items[0]).toMatchObject({ status: "resolved" });
  });
});

describe("durability", () => {
  test("the process dies between the movement's commit and delivery: a new instance delivers the event", async () => {
    const first = await createTestEnv(VARS, { clock });
    const rx = receiver();
    let secret: string;
    let checkoutId: string;
    {
      const api = await partnerKit({ env: first, partnerId: "crashy", users: { ada: "admin" } });
      secret = (await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] })).secret;
      checkoutId = (await checkout(api)).id;
    }
    // "Kill" it: drop every open database handle without running any job.
    first.deps.tenancy.close();
    expect(rx.received).toHaveLength(0);

    // A fresh instance over the same TENANTS_DIR.
    const second = await createTestEnv({ ...VARS, TENANTS_DIR: first.deps.config.tenantsDir }, { clock });
    try {
      clock.advance(MIN);
      const [run] = await deliver("crashy", second);
      expect(run!.status).toBe("succeeded");
      expect(rx.received).toHaveLength(1);
      expect(rx.received[0]!.json.data.movement.checkoutId).toBe(checkoutId);
      expect(verifySignature(secret, rx.received[0]!)).toBe(true);
    } finally {
      second.close();
      first.close();
    }
  });

  test("an event written by another process (sqlite3, a second instance) is delivered too", async () => {
    const api = await partner();
    const rx = receiver();
    await api.create("/webhooks", { url: rx.url, events: ["asset.moved"] });
    const file = `${env.deps.config.tenantsDir}/${api.partnerId}.db`;
    const payload = JSON.stringify({ id: "ext-1", type: "asset.moved", partnerId: api.partnerId, occurredAt: clock.now().toISOString(), data: { from: "elsewhere" } });
    const proc = Bun.spawn(["node_modules/.bin/bun", "test/fakes/sqlite-writer.ts", file], { stdin: "pipe", stdout: "pipe" });
    const sql = `exec INSERT INTO outbox (id, kind, aggregate_id, payload, occurred_at, created_at) VALUES ('ext-1', 'asset.moved', 'x', '${payload}', '${clock.now().toISOString()}', '${clock.now().toISOString()}')`;
    proc.stdin.write(`${sql}\nexit\n`);
    await proc.stdin.end();
    expect(await proc.exited).toBe(0);
    await deliver(api.partnerId);
    expect(rx.received.map((r) => r.json)).toEqual([JSON.parse(payload)]);
  });
});

describe("history", () => {
  test("pages newest first with a cursor, and is purged 30 days after a delivery finished", async () => {
    const api = await partner();
    const rx = receiver({ script: [500] });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout(api);
    await checkout(api);
    await deliver(api.partnerId);
    clock.advance(5 * S);
    await deliver(api.partnerId);
    const all = (await api.get(`/webhooks/${hook.id}/deliveries`)).body;
    expect(all.total).toBe(3);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get(`/webhooks/${hook.id}/deliveries`, { query: { limit: 1, cursor } });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((a: any) => a.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.items.map((a: any) => a.id));
    expect((await api.get(`/webhooks/${hook.id}/deliveries`, { query: { limit: 201 } })).status).toBe(400);

    clock.advance(30 * 24 * H + MIN);
    await deliver(api.partnerId);
    expect((await api.get(`/webhooks/${hook.id}/deliveries`)).body.total).toBe(0);
    expect(await api.read((q) => q.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id)))).toEqual([]);
  });
});
