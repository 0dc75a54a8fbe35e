// The live event streams' mechanics (src/platform/events), through GET /api/assets/events/stream:
// several clients, resuming with Last-Event-ID, heartbeats, the per-user bound, a member revoked
// mid-stream, token expiry, a slow client's overflow, commits by another process (the poll), and
// the graceful stop. Runs on both drivers.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { randomBytes } from "node:crypto";
import { partnerKit, type Kit } from "../kit.ts";
import { readSse, type SseClient } from "../fakes/sse-client.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";
import { loadConfig } from "../../src/env.ts";
import { startServer } from "../../src/main.ts";

const api = await partnerKit({
  partnerId: "live",
  users: { ada: "admin", olga: "operator", vic: "viewer", val: "viewer", rev: "viewer" },
  envVars: { EVENT_STREAM_HEARTBEAT_MS: "150", EVENT_STREAM_POLL_MS: "100", EVENT_STREAM_MAX_PER_USER: "2" },
});
afterAll(() => api.close());
const location = await api.seed.location();

async function openStream(kit: Kit, user: string, opts: { lastEventId?: string; token?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? (await kit.env.token(user))}` };
  if (opts.lastEventId !== undefined) headers["last-event-id"] = opts.lastEventId;
  return kit.env.app.fetch(new Request(`http://test.local${kit.url("/events/stream")}`, { headers }));
}

async function stream(kit: Kit, user: string, opts: { lastEventId?: string; token?: string } = {}): Promise<SseClient> {
  const res = await openStream(kit, user, opts);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const client = readSse(res);
  await client.waitFor((c) => c.messages.some((m) => m.event === "ready"), 5000, "ready");
  return client;
}

async function newAsset(kit: Kit, name: string): Promise<string> {
  const a = await kit.as("olga").create("/assets", { name, ownership: "owned", locationId: location.id });
  return a.id as string;
}

const itemIdsOf = (c: SseClient) => c.events().map((m) => m.json.data.movement.itemId as string);

describe("live event streams", () => {
  test("several clients see the same events, in commit order, with the outbox position as id", async () => {
    const [vic, val] = [await stream(api, "vic"), await stream(api, "val")];
    // The first message says where the stream starts (and how long to wait before reconnecting).
    expect(vic.messages[0]!.event).toBe("ready");
    expect(vic.messages[0]!.json).toEqual({ lastEventId: vic.messages[0]!.id });
    const ids = [await newAsset(api, "Drill 1"), await newAsset(api, "Drill 2"), await newAsset(api, "Drill 3")];
    for (const c of [vic, val]) await c.waitFor((x) => x.events().length === 3, 5000, "three events");
    for (const c of [vic, val]) {
      expect(c.events().map((m) => m.event)).toEqual(["asset.created", "asset.created", "asset.created"]);
      expect(itemIdsOf(c)).toEqual(ids);
      const seqs = c.events().map((m) => Number(m.id));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(seqs[0]).toBeGreaterThan(Number(c.messages[0]!.id));
      // The body webhooks receive.
      expect(Object.keys(c.events()[0]!.json).sort()).toEqual(["data", "id", "occurredAt", "partnerId", "type"]);
      expect(c.events()[0]!.json).toMatchObject({ type: "asset.created", partnerId: "live" });
    }
    expect(val.events().map((m) => m.id)).toEqual(vic.events().map((m) => m.id));
    await vic.close();
    await val.close();
  });

  test("a reconnect with Last-Event-ID gets what was written meanwhile, once, then the live events", async () => {
    const first = await stream(api, "vic");
    const a = await newAsset(api, "Saw A");
    await first.waitFor((c) => c.events().length === 1);
    expect(itemIdsOf(first)).toEqual([a]);
    const seen = first.events()[0]!.id!;
    await first.close();

    const b = await newAsset(api, "Saw B");
    const c = await newAsset(api, "Saw C");
    const again = await stream(api, "vic", { lastEventId: seen });
    expect(again.messages[0]!.id).toBe(seen);
    await again.waitFor((x) => x.events().length === 2, 5000, "the two missed events");
    const d = await newAsset(api, "Saw D");
    await again.waitFor((x) => x.events().length === 3, 5000, "the live event");
    expect(itemIdsOf(again)).toEqual([b, c, d]);
    await again.close();
  });

  test("a client that saw no event resumes from the ready id and misses nothing", async () => {
    const quiet = await stream(api, "vic");
    const from = quiet.messages[0]!.id!;
    await quiet.close();
    const e = await newAsset(api, "Ladder");
    const back = await stream(api, "vic", { lastEventId: from });
    await back.waitFor((x) => x.events().length === 1);
    expect(itemIdsOf(back)).toEqual([e]);
    await back.close();
  });

  test("heartbeat comments arrive while nothing happens", async () => {
    const c = await stream(api, "vic");
    await c.waitFor((x) => x.comments.filter((t) => t === "ping").length >= 2, 3000, "two heartbeats");
    expect(c.events()).toEqual([]);
    await c.close();
  });

  test("one stream beyond the per-user bound is 429 rate_limited with Retry-After; closing one frees its place", async () => {
    const one = await stream(api, "vic");
    // Two at once for the one place left: one gets it.
    const raced = await Promise.all([openStream(api, "vic"), openStream(api, "vic")]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 429]);
    const two = readSse(raced.find((r) => r.status === 200)!);
    const third = await openStream(api, "vic");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("3");
    expect(((await third.json()) as { code: string }).code).toBe("rate_limited");
    // Another user has places of their own, and so has the planning stream (a console tab reads both).
    const other = await stream(api, "val");
    const planning = await api.env.app.fetch(
      new Request(`http://test.local/api/planning/events/stream?partnerId=live`, { headers: { authorization: `Bearer ${await api.env.token("vic")}` } }),
    );
    expect(planning.status).toBe(200);
    await planning.body!.cancel();
    await one.close();
    await Bun.sleep(20);
    const four = await stream(api, "vic");
    for (const c of [two, other, four]) await c.close();
  });

  test("a malformed Last-Event-ID is 400 at its header", async () => {
    const res = await openStream(api, "vic", { lastEventId: "abc" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown }).errors).toEqual([{ path: "/header/last-event-id", message: "must be a non-negative integer" }]);
  });

  test("a member whose access is revoked mid-stream is cut off with event revoked, within the poll interval", async () => {
    const c = await stream(api, "rev");
    await upsertMember(api.env.deps, { partnerId: "live", userId: "rev", role: "viewer", status: "inactive" });
    const started = Date.now();
    await c.waitFor((x) => x.ended, 3000, "the end of the stream");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(c.messages.at(-1)).toMatchObject({ event: "revoked", json: { reason: "revoked" } });
    // An event written now never reaches them, and a new stream is refused.
    await newAsset(api, "After revocation");
    expect(c.events()).toEqual([]);
    expect((await openStream(api, "rev")).status).toBe(403);
  });

  test("the stream ends at the token's exp with event expired", async () => {
    const token = await api.env.token("val", { ttlSeconds: 1 });
    const c = await stream(api, "val", { token });
    await c.waitFor((x) => x.ended, 3000, "expiry");
    expect(c.messages.at(-1)!.event).toBe("expired");
  });

  test("events committed by another process arrive through the poll", async () => {
    const c = await stream(api, "vic");
    const file = api.env.driver === "libsql" ? join(api.env.dir, "libsql-server", "live.db") : join(api.env.dir, "live.db");
    const writer = Bun.spawn(["bun", join(import.meta.dir, "../fakes/sqlite-writer.ts"), file], { stdin: "pipe", stdout: "pipe" });
    const id = Bun.randomUUIDv7();
    const payload = JSON.stringify({ id, type: "asset.moved", partnerId: "live", occurredAt: "2026-06-01T00:00:00.000Z", data: { movement: { itemId: "from-elsewhere" } } });
    writer.stdin.write(
      `exec INSERT INTO outbox (id, kind, aggregate_id, payload, occurred_at, created_at) VALUES ('${id}', 'asset.moved', 'from-elsewhere', '${payload}', '2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z')\nexit\n`,
    );
    writer.stdin.end();
    expect(await writer.exited).toBe(0);
    await c.waitFor((x) => x.events().length === 1, 3000, "the other process's event");
    expect(c.events()[0]!.json).toMatchObject({ id, type: "asset.moved", data: { movement: { itemId: "from-elsewhere" } } });
    await c.close();
  });
});

test("a client that stops reading gets event overflow past the queue bound, and resumes without loss", async () => {
  const kit = await partnerKit({ partnerId: "slow", users: { ada: "admin", olga: "operator", vic: "viewer" }, envVars: { EVENT_STREAM_QUEUE_MAX: "3" } });
  try {
    const loc = await kit.seed.location();
    const res = await openStream(kit, "vic");
    expect(res.status).toBe(200);
    // Nothing reads the body while four events commit.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await kit.as("olga").create("/assets", { name: `Crate ${i}`, ownership: "owned", locationId: loc.id })).id);
    const c = readSse(res);
    await c.waitFor((x) => x.ended, 3000, "the overflow");
    expect(c.messages.map((m) => m.event)).toEqual(["ready", "asset.created", "asset.created", "overflow"]);
    const back = await stream(kit, "vic", { lastEventId: c.events().at(-1)!.id });
    await back.waitFor((x) => x.events().length === 2);
    expect([...itemIdsOf(c), ...itemIdsOf(back)]).toEqual(ids);
    await back.close();
  } finally {
    kit.close();
  }
});

test("a graceful stop ends open streams at once instead of waiting out the 10 s cap", async () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-stream-stop-"));
  const config = loadConfig({
    TENANTS_DIR: dir,
    DASHBOARD_JWT_SECRET: "test-secret-of-at-least-32-bytes-long!!",
    DATA_KEK: randomBytes(32).toString("base64"),
    JOBS: "off",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
  });
  const running = await startServer(config, { port: 0, hostname: "127.0.0.1", print: () => {} });
  try {
    const res = await fetch(`http://127.0.0.1:${running.port}/api/assets/events/stream?partnerId=demo`, { headers: { authorization: `Bearer ${running.demo!.token}` } });
    expect(res.status).toBe(200);
    const c = readSse(res);
    await c.waitFor((x) => x.messages.some((m) => m.event === "ready"));
    // A client that goes away (its connection closed) frees its place on the real server too.
    const gone = new AbortController();
    const leaving = await fetch(`http://127.0.0.1:${running.port}/api/assets/events/stream?partnerId=demo`, { headers: { authorization: `Bearer ${running.demo!.token}` }, signal: gone.signal });
    expect(leaving.status).toBe(200);
    expect(running.deps.events.size).toBe(2);
    gone.abort();
    for (let i = 0; i < 100 && running.deps.events.size > 1; i++) await Bun.sleep(20);
    expect(running.deps.events.size).toBe(1);
    const started = Date.now();
    await running.stop();
    expect(Date.now() - started).toBeLessThan(3000);
    await c.waitFor((x) => x.ended, 2000, "the end of the stream");
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
