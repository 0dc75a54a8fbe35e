// Webhook endpoints as an administrator configures them, and the first delivery a
// loopback receiver (a real Bun.serve) gets: signed exactly per contract §10.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { startReceiver, verifySignature, type Receiver } from "../../../test/fakes/webhook-receiver.ts";
import { runJob } from "../../jobs/run-job.ts";
import { webhookDeliveryJob } from "../../jobs/webhook-delivery.job.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import { webhookEndpoints } from "./webhooks.tables.ts";
import { checkWebhookUrl, isRefusedAddress } from "./webhook-url.ts";

const T0 = new Date("2030-03-04T09:00:00.000Z");
const clock = new MutableClock(new Date(T0));
const KEY = randomBytes(32).toString("base64");
const env = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: "1" }, { clock });
const receivers: Receiver[] = [];
afterAll(() => {
  for (const r of receivers) r.stop();
  env.close();
});

let seq = 0;
async function partner() {
  return partnerKit({ env, partnerId: `wh-${++seq}`, users: { ada: "admin", oli: "operator" } });
}
function receiver(...args: Parameters<typeof startReceiver>) {
  const r = startReceiver(...args);
  receivers.push(r);
  return r;
}
const deliver = (partnerId: string) => runJob(env.deps, webhookDeliveryJob, { partnerId });

describe("a checkout reaches the receiver signed per contract §10", () => {
  test("create → secret once → checkout → one signed custody.checked_out delivery", async () => {
    const api = await partner();
    const rx = receiver();
    const created = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    expect(created).toMatchObject({ url: rx.url, events: ["custody.checked_out"], enabled: true, disabledReason: null, failingSince: null, version: 1, createdBy: "ada" });
    const secret: string = created.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    // Shown once: never in a list, and stored only encrypted.
    const list = await api.get("/webhooks");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const stored = await api.read((q) => q.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id)));
    expect(stored[0]!.secretCiphertext).not.toContain(secret.slice(6));
    expect(stored[0]!.secretCiphertext.startsWith("v1.")).toBe(true);

    const item = await api.seed.activeAsset();
    const dueAt = new Date(T0.getTime() + 3 * 86_400_000).toISOString();
    const checkout = await api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "ada" }, dueAt });
    expect(rx.received).toHaveLength(0); // nothing is sent in the request: the outbox is delivered by the job

    const [run] = await deliver(api.partnerId);
    expect(run!.status).toBe("succeeded");
    expect(rx.received).toHaveLength(1); // asset.created of the seeded item is not subscribed
    const got = rx.received[0]!;
    expect(got.event).toBe("custody.checked_out");
    expect(got.contentType).toBe("application/json");
    expect(got.timestamp).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(verifySignature(secret, got)).toBe(true);
    expect(verifySignature(secret + "x", got)).toBe(false);

    // The body is the outbox payload: { id, type, partnerId, occurredAt, data }.
    const [event] = await api.read((q) => q.select().from(outbox).where(eq(outbox.kind, "custody.checked_out")));
    expect(Object.keys(got.json).sort()).toEqual(["data", "id", "occurredAt", "partnerId", "type"]);
    expect(got.json).toEqual(event!.payload as Record<string, any>);
    expect(got.json).toMatchObject({ id: event!.id, type: "custody.checked_out", partnerId: api.partnerId });
    expect(got.json.data.movement).toMatchObject({ kind: "checked_out", itemId: item.id, checkoutId: checkout.id });

    const history = await api.get(`/webhooks/${created.id}/deliveries`);
    expect(history.status).toBe(200);
    expect(history.body.total).toBe(1);
    expect(history.body.items[0]).toMatchObject({
      deliveryId: got.deliveryId,
      eventId: event!.id,
      eventType: "custody.checked_out",
      attempt: 1,
      statusCode: 200,
      outcome: "succeeded",
      error: null,
      nextAttemptAt: null,
    });
    expect(history.body.items[0].durationMs).toBeGreaterThanOrEqual(0);

    // A second pass sends nothing again.
    await deliver(api.partnerId);
    expect(rx.received).toHaveLength(1);
  });

  test("an endpoint gets only the events committed after its creation, and only its kinds", async () => {
    const api = await partner();
    const before = await api.seed.activeAsset();
    const rx = receiver();
    await api.create("/webhooks", { url: rx.url, events: ["asset.created", "asset.moved"] });
    const after = await api.seed.asset();
    await deliver(api.partnerId);
    expect(rx.received.map((r) => [r.event, r.json.data.movement.itemId])).toEqual([["asset.created", after.id]]);
    expect(rx.received.some((r) => r.json.data.movement.itemId === before.id)).toBe(false);
  });
});

describe("test deliveries", () => {
  test("POST /webhooks/{id}/test sends one signed webhook.test now; a failure is reported, not retried", async () => {
    const api = await partner();
    const rx = receiver({ script: [204, 500] });
    const hook = await api.create("/webhooks", { url: rx.url, events: ["asset.moved"] });
    const ok = await api.post(`/webhooks/${hook.id}/test`, {});
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ eventType: "webhook.test", attempt: 1, statusCode: 204, outcome: "succeeded", nextAttemptAt: null });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.json).toMatchObject({ type: "webhook.test", partnerId: api.partnerId, data: { endpointId: hook.id, requestedBy: "ada" } });
    expect(rx.received[0]!.deliveryId).toBe(ok.body.deliveryId);
    expect(verifySignature(hook.secret, rx.received[0]!)).toBe(true);

    const failed = await api.post(`/webhooks/${hook.id}/test`, {});
    expect(failed.body).toMatchObject({ statusCode: 500, outcome: "failed", nextAttemptAt: null });
    clock.advance(60_000);
    await deliver(api.partnerId);
    expect(rx.received).toHaveLength(2);
    // A test leaves the endpoint's failure state alone.
    expect((await api.get("/webhooks")).body.items[0]).toMatchObject({ enabled: true, failingSince: null });
    const history = await api.get(`/webhooks/${hook.id}/deliveries`);
    expect(history.body.items.map((a: any) => a.outcome)).toEqual(["failed", "succeeded"]);
  });

  test("a refused connection is recorded as a network error", async () => {
    const api = await partner();
    const rx = receiver();
    rx.stop();
    const hook = await api.create("/webhooks", { url: rx.url, events: ["asset.moved"] });
    const res = await api.post(`/webhooks/${hook.id}/test`, {});
    expect(res.body).toMatchObject({ statusCode: null, error: "network", outcome: "failed" });
  });
});

describe("configuration", () => {
  test("PUT replaces URL, kinds and enabled; the secret stays; disabling stops deliveries, enabling starts after now", async () => {
    const api = await partner();
    const rx = receiver();
    const other = receiver();
    const hook = await api.create("/webhooks", { url: rx.url, events: ["asset.created"] });
    const put = await api.put(`/webhooks/${hook.id}`, { url: other.url, events: ["asset.created", "asset.moved"], enabled: false, expectedVersion: 1 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ url: other.url, events: ["asset.created", "asset.moved"], enabled: false, disabledReason: null, version: 2 });
    expect(put.body).not.toHaveProperty("secret");
    expect((await api.put(`/webhooks/${hook.id}`, { url: other.url, events: ["asset.created"], enabled: true, expectedVersion: 1 })).body.code).toBe("version_conflict");

    await api.seed.asset(); // while disabled: never delivered
    await deliver(api.partnerId);
    expect(other.received).toHaveLength(0);

    const on = await api.put(`/webhooks/${hook.id}`, { url: other.url, events: ["asset.created"], enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledAt: null, version: 3 });
    const later = await api.seed.asset();
    await deliver(api.partnerId);
    expect(other.received.map((r) => r.json.data.movement.itemId)).toEqual([later.id]);
    expect(rx.received).toHaveLength(0);
    // Same secret as created.
    expect(verifySignature(hook.secret, other.received[0]!)).toBe(true);
  });

  test("bodies are strict: unknown kinds, no kinds, and a body-supplied secret are 400; a repeated kind counts once", async () => {
    const api = await partner();
    const url = "http://127.0.0.1:9/x";
    for (const [body, path] of [
      [{ url, events: ["asset.exploded"] }, "/body/events/0"],
      [{ url, events: [] }, "/body/events"],
      [{ url, events: ["asset.moved"], secret: "mine" }, "/body/secret"],
      [{ url: "not a url", events: ["asset.moved"] }, "/body/url"],
    ] as const) {
      const res = await api.post("/webhooks", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: any) => e.path), JSON.stringify(body)).toContain(path);
    }
    expect((await api.create("/webhooks", { url, events: ["asset.moved", "asset.moved", "asset.created"] })).events).toEqual(["asset.moved", "asset.created"]);
  });

  test("webhooks need ams_admin, mutations a step-up; unknown ids are 404", async () => {
    const api = await partner();
    const url = "http://127.0.0.1:9/x";
    expect((await api.as("oli").get("/webhooks")).body.code).toBe("capability_denied");
    expect((await api.as("oli").post("/webhooks", { url, events: ["asset.moved"] })).body.code).toBe("capability_denied");
    const stale = await env.token("ada", { now: clock.now(), ageSeconds: 901 });
    const res = await api.post("/webhooks", { url, events: ["asset.moved"] }, { token: stale });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("step_up_required");
    const aal1 = await env.token("ada", { now: clock.now(), aal: "aal1", amr: ["pwd"] });
    expect((await api.post("/webhooks", { url, events: ["asset.moved"] }, { token: aal1 })).body.code).toBe("step_up_required");
    // Reads need no step-up.
    expect((await api.get("/webhooks", { token: stale })).status).toBe(200);
    const ghost = env.deps.newId();
    expect((await api.put(`/webhooks/${ghost}`, { url, events: ["asset.moved"], enabled: false })).status).toBe(404);
    expect((await api.post(`/webhooks/${ghost}/test`, {})).status).toBe(404);
    expect((await api.get(`/webhooks/${ghost}/deliveries`)).status).toBe(404);
  });
});

describe("without AMS_WEBHOOK_ENCRYPTION_KEY", () => {
  test("creating, enabling and testing are 409 webhook_key_not_configured; disabling and reading still work", async () => {
    const api = await partner();
    const hook = await api.create("/webhooks", { url: "http://127.0.0.1:9/x", events: ["asset.moved"], enabled: false });
    // The same partner served by an instance started without the key.
    const keyless = await createTestEnv({ TENANTS_DIR: env.deps.config.tenantsDir, WEBHOOK_ALLOW_PRIVATE: "1" }, { clock });
    try {
      const other = await partnerKit({ env: keyless, partnerId: api.partnerId, users: { ada: "admin" } });
      const create = await other.post("/webhooks", { url: "http://127.0.0.1:9/y", events: ["asset.moved"] });
      expect(create.status).toBe(409);
      expect(create.body.code).toBe("webhook_key_not_configured");
      const enable = await other.put(`/webhooks/${hook.id}`, { url: hook.url, events: ["asset.moved"], enabled: true });
      expect(enable.body.code).toBe("webhook_key_not_configured");
      expect((await other.post(`/webhooks/${hook.id}/test`, {})).body.code).toBe("webhook_key_not_configured");
      const rename = await other.put(`/webhooks/${hook.id}`, { url: "http://127.0.0.1:9/z", events: ["asset.moved"], enabled: false });
      expect(rename.status).toBe(200);
      expect((await other.get("/webhooks")).body.items[0]).toMatchObject({ url: "http://127.0.0.1:9/z", enabled: false });
    } finally {
      keyless.close();
    }
  });
});

describe("URLs resolving to private ranges are refused unless allowed", () => {
  test("https only; loopback, private, link-local and metadata addresses are 400 at /body/url", async () => {
    const strict = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY }, { clock });
    try {
      const api = await partnerKit({ env: strict, partnerId: "strict", users: { ada: "admin" } });
      for (const url of [
        "http://hooks.example.com/x",
        "ftp://hooks.example.com/x",
        "https://user:pw@hooks.example.com/x",
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://10.20.30.40/x",
        "https://172.16.0.1/x",
        "https://192.168.1.1/x",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/x",
        "https://0.0.0.0/x",
        "https://[::1]/x",
        "https://[fd00:ec2::254]/x",
        "https://[fe80::1]/x",
        "https://[::ffff:127.0.0.1]/x",
        "https://[::ffff:a9fe:a9fe]/x",
        "https://nonexistent.invalid/x",
      ]) {
        const res = await api.post("/webhooks", { url, events: ["asset.moved"] });
        expect(res.status, url).toBe(400);
        expect(res.body.errors[0].path, url).toBe("/body/url");
      }
      // A public literal address passes the check (nothing is sent at creation).
      expect((await api.post("/webhooks", { url: "https://93.184.216.34/x", events: ["asset.moved"] })).status).toBe(201);
    } finally {
      strict.close();
    }
  });

  test("every resolved address is checked: one private address among public ones refuses the name", async () => {
    const resolveTo = (addresses: string[]) => async () => addresses;
    expect(await checkWebhookUrl("https://hooks.example.com/x", false, resolveTo(["93.184.216.34", "2606:2800:220:1::1"]))).toEqual({
      ok: true,
      addresses: ["93.184.216.34", "2606:2800:220:1::1"],
    });
    expect((await checkWebhookUrl("https://hooks.example.com/x", false, resolveTo(["93.184.216.34", "10.0.0.7"]))).ok).toBe(false);
    expect((await checkWebhookUrl("https://hooks.example.com/x", false, resolveTo([]))).ok).toBe(false);
    expect(await checkWebhookUrl("http://127.0.0.1/x", true)).toEqual({ ok: true, addresses: ["127.0.0.1"] });
    for (const a of ["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "fc00::1", "fe80::1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "::"]) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isRefusedAddress(a), a).toBe(false);
  });
});

describe("the HTTP call", () => {
  test("goes through deps.fetch as a POST with a 10 s timeout signal and no redirect following; a timeout is recorded as such", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), init: init! });
      throw new DOMException("The operation timed out.", "TimeoutError");
    }) as unknown as typeof fetch;
    const observed = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: "1" }, { clock, fetch: fakeFetch });
    try {
      const api = await partnerKit({ env: observed, partnerId: "observed", users: { ada: "admin" } });
      const hook = await api.create("/webhooks", { url: "http://127.0.0.1:9/slow", events: ["asset.created"] });
      await api.seed.asset();
      const [run] = await runJob(observed.deps, webhookDeliveryJob, { partnerId: "observed" });
      expect(run!.status).toBe("succeeded");
      expect(calls).toHaveLength(1);
      expect(calls[0]!.url).toBe("http://127.0.0.1:9/slow");
      expect(calls[0]!.init.method).toBe("POST");
      expect(calls[0]!.init.redirect).toBe("manual");
      expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
      const [attempt] = (await api.get(`/webhooks/${hook.id}/deliveries`)).body.items;
      expect(attempt).toMatchObject({ statusCode: null, error: "timeout", outcome: "retrying", nextAttemptAt: new Date(clock.now().getTime() + 5000).toISOString() });
    } finally {
      observed.close();
    }
  });
});
