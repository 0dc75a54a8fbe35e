// Issue 19 item 3: one JSON access-log line per request at info (route template, never
// the raw URL or a token), W3C traceparent accepted and carried through the outbox to the
// webhook delivery sent later, and jobs that log only when they did work or failed.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createTestEnv, MutableClock, type TestEnv } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { startReceiver, type Receiver } from "../fakes/webhook-receiver.ts";
import { runJob } from "../../src/jobs/run-job.ts";
import { webhookDeliveryJob } from "../../src/jobs/webhook-delivery.job.ts";
import { outbox } from "../../src/platform/outbox/outbox.tables.ts";
import type { PartnerJob } from "../../src/jobs/job.ts";

const clock = new MutableClock(new Date("2031-03-04T09:00:00.000Z"));
const env = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1" }, { clock });
const receivers: Receiver[] = [];
afterAll(() => {
  for (const r of receivers) r.stop();
  env.close();
});

type Line = Record<string, unknown>;
/** Every log line written since `from`, parsed. */
const linesSince = (e: TestEnv, from: number): Line[] => e.logLines.slice(from).map((l) => JSON.parse(l) as Line);
const requestLines = (e: TestEnv, from: number) => linesSince(e, from).filter((l) => l.msg === "request");

const api = await partnerKit({ env, partnerId: "log-co", users: { ada: "admin", vic: "viewer" } });
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE}-${PARENT}-01`;

describe("the access log", () => {
  test("one info line per request: request id, trace id, method, route template, status, duration, partner, user, bytes — no query, no token", async () => {
    const item = await api.seed.activeAsset();
    const token = await env.token("ada");
    const from = env.logLines.length;
    const res = await env.app.fetch(
      new Request(`http://test.local/api/assets/items/${item.id}?partnerId=log-co&expand=nothing-secret`, {
        headers: { authorization: `Bearer ${token}`, traceparent: TRACEPARENT, "x-request-id": "req-log-1" },
      }),
    );
    const body = await res.arrayBuffer();
    const lines = requestLines(env, from);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(Object.keys(line)).toEqual(["t", "level", "msg", "requestId", "traceId", "method", "route", "status", "durationMs", "partnerId", "userId", "bytes"]);
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      requestId: "req-log-1",
      traceId: TRACE,
      method: "GET",
      route: "/api/assets/items/{id}",
      status: res.status,
      partnerId: "log-co",
      userId: "ada",
      bytes: body.byteLength,
    });
    expect(body.byteLength).toBeGreaterThan(0);
    expect(typeof line.durationMs).toBe("number");
    expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
    expect(Date.parse(line.t as string)).not.toBeNaN();
    const raw = env.logLines.slice(from).join("\n");
    for (const leak of [item.id, "?", "expand", "nothing-secret", token, "Bearer"]) expect(raw).not.toContain(leak);
  });

  test("writes, problems and unmatched paths: the route or `unmatched`, the partner asked for, the user once verified", async () => {
    const token = await env.token("vic");
    const from = env.logLines.length;
    // A viewer may not create a location: 403 after the token and partner were checked.
    const denied = await env.call("POST", "/api/assets/locations?partnerId=log-co", { token, body: { name: "X", kind: "room" } });
    expect(denied.status).toBe(403);
    // A partner the caller is no member of: logged as asked (well-formed), with the user.
    const foreign = await env.call("GET", "/api/assets/owned?partnerId=other-co", { token });
    expect(foreign.status).toBe(403);
    // A malformed partnerId is not logged.
    const malformed = await env.call("GET", "/api/assets/owned?partnerId=Bad_Id", { token });
    expect(malformed.status).toBe(400);
    // A refused token: no user.
    const unauth = await env.call("GET", "/api/assets/owned?partnerId=log-co", { token: "not-a-token" });
    expect(unauth.status).toBe(401);
    // No route at all.
    const missing = await env.call("GET", "/api/assets/no-such-thing/123?partnerId=log-co&token=abc", {});
    expect(missing.status).toBe(404);
    // A malformed traceparent starts no trace and breaks nothing.
    const badTrace = await env.call("GET", "/healthz", { headers: { traceparent: `00-${"0".repeat(32)}-${PARENT}-01` } });
    expect(badTrace.status).toBe(200);
    const upper = await env.call("HEAD", "/healthz", { headers: { traceparent: TRACEPARENT.toUpperCase() } });
    expect(upper.status).toBe(200);

    const lines = requestLines(env, from).map(({ t: _t, durationMs: _d, requestId: _r, ...rest }) => rest);
    const bytesOf = (r: { headers: Headers }) => Number(r.headers.get("content-length"));
    expect(lines).toEqual([
      { level: "info", msg: "request", method: "POST", route: "/api/assets/locations", status: 403, partnerId: "log-co", userId: "vic", bytes: bytesOf(denied) },
      { level: "info", msg: "request", method: "GET", route: "/api/assets/owned", status: 403, partnerId: "other-co", userId: "vic", bytes: bytesOf(foreign) },
      { level: "info", msg: "request", method: "GET", route: "/api/assets/owned", status: 400, userId: "vic", bytes: bytesOf(malformed) },
      { level: "info", msg: "request", method: "GET", route: "/api/assets/owned", status: 401, bytes: bytesOf(unauth) },
      { level: "info", msg: "request", method: "GET", route: "unmatched", status: 404, bytes: bytesOf(missing) },
      { level: "info", msg: "request", method: "GET", route: "/healthz", status: 200, bytes: bytesOf(badTrace) },
      { level: "info", msg: "request", method: "HEAD", route: "/healthz", status: 200, bytes: 0 },
    ]);
    for (const r of [denied, foreign, malformed, unauth, missing, badTrace]) expect(bytesOf(r)).toBeGreaterThan(0);
    expect(env.logLines.slice(from).join("\n")).not.toContain(token);
  });
});

describe("traceparent reaches the webhook receiver", () => {
  const receiver = () => {
    const r = startReceiver();
    receivers.push(r);
    return r;
  };
  const checkout = async (headers: Record<string, string> = {}) => {
    const item = await api.seed.activeAsset();
    const res = await api.post("/checkouts", { itemId: item.id, holder: { kind: "user", id: "ada" }, dueAt: new Date(clock.now().getTime() + 86_400_000).toISOString() }, { headers });
    expect(res.status).toBe(201);
    return res;
  };
  const TP = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

  test("the event a traced request wrote is delivered later in the same trace, as a new span", async () => {
    const rx = receiver();
    await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout({ traceparent: TRACEPARENT });
    // The trace id is kept with the outbox event, outside its signed payload.
    const events = await api.read((q) => q.select().from(outbox).where(eq(outbox.kind, "custody.checked_out")));
    expect(events.map((e) => e.traceId)).toEqual([TRACE]);
    expect(JSON.stringify(events[0]!.payload)).not.toContain(TRACE);

    await runJob(env.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    expect(rx.received).toHaveLength(1);
    const [, traceId, spanId, flags] = TP.exec(rx.received[0]!.traceparent) ?? [];
    expect(traceId).toBe(TRACE);
    expect(spanId).not.toBe(PARENT);
    expect(spanId).not.toBe("0".repeat(16));
    expect(flags).toBe("01");
    expect(rx.received[0]!.body).not.toContain(TRACE);
  });

  test("without a traceparent each delivery starts its own trace, kept across its retries", async () => {
    const rx = receiver();
    rx.script = [500];
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    await checkout();
    await runJob(env.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    clock.advance(5_000);
    await runJob(env.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    const mine = rx.received;
    expect(mine).toHaveLength(2);
    const parsed = mine.map((r) => TP.exec(r.traceparent));
    expect(parsed.every((m) => m !== null)).toBe(true);
    // One trace for the delivery (its id from the delivery id), a new span per attempt, not sampled by us.
    expect(parsed[0]![1]).toBe(mine[0]!.deliveryId.replaceAll("-", ""));
    expect(parsed[1]![1]).toBe(parsed[0]![1]);
    expect(parsed[1]![2]).not.toBe(parsed[0]![2]);
    expect(parsed.map((m) => m![3])).toEqual(["00", "00"]);
    expect(parsed[0]![1]).not.toBe(TRACE);
    const history = await api.get(`/webhooks/${hook.id}/deliveries`);
    expect(history.body.items.map((a: { outcome: string }) => a.outcome)).toEqual(["succeeded", "retrying"]);
  });

  test("a test delivery sent during a traced request continues that request's trace", async () => {
    const rx = receiver();
    const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
    const res = await api.post(`/webhooks/${hook.id}/test`, {}, { headers: { traceparent: TRACEPARENT } });
    expect(res.status).toBeLessThan(300);
    expect(rx.received).toHaveLength(1);
    expect(TP.exec(rx.received[0]!.traceparent)?.[1]).toBe(TRACE);
  });
});

describe("job logging", () => {
  const job = (processed: () => number): PartnerJob => ({
    name: "log-probe",
    schedule: "* * * * *",
    perPartner: true,
    run: async () => {
      const n = processed();
      if (n < 0) throw new Error("boom");
      return { processed: n };
    },
  });
  const jobLines = (from: number) => linesSince(env, from).filter((l) => l.job === "log-probe").map((l) => [l.level, l.msg, l.processed]);

  test("a pass that did nothing is a debug line; one that did work is info; a failure is an error", async () => {
    let from = env.logLines.length;
    await runJob(env.deps, job(() => 0), { partnerId: api.partnerId });
    expect(jobLines(from)).toEqual([["debug", "job succeeded", 0]]);

    from = env.logLines.length;
    await runJob(env.deps, job(() => 3), { partnerId: api.partnerId });
    expect(jobLines(from)).toEqual([["info", "job succeeded", 3]]);

    from = env.logLines.length;
    await runJob(env.deps, job(() => -1), { partnerId: api.partnerId });
    expect(jobLines(from)).toEqual([["error", "job failed", undefined]]);
  });

  test("the real webhook job over an idle partner writes nothing at info", async () => {
    const idle = await partnerKit({ env, partnerId: "log-idle", users: { ada: "admin" } });
    const from = env.logLines.length;
    await runJob(env.deps, webhookDeliveryJob, { partnerId: idle.partnerId });
    expect(linesSince(env, from).filter((l) => l.level !== "debug")).toEqual([]);
  });
});
