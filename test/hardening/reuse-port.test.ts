// hardening/reuse-port: two real server processes (`bun run src/main.ts`) on one host
// sharing one port with REUSE_PORT=true (SO_REUSEPORT: the kernel spreads connections
// over them), over the same partner files. Both start on the same port; when one
// stops gracefully, the port stays served by the other (reads and a keyed write). Without
// REUSE_PORT the second process cannot start on a port the first holds. And the setting
// is parsed strictly (true or false).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createTestEnv, type TestEnv } from "../harness.ts";
import { ConfigError, loadConfig } from "../../src/env.ts";
import { errorLines, serverEnv, startServerProcess, type ServerProcess } from "./server-process.ts";
import { sqlOf } from "./workload.ts";

const PARTNER = "shared-port";
const secrets = {
  dataKek: randomBytes(32).toString("base64"),
  webhookKey: randomBytes(32).toString("base64"),
  schedulerSecret: randomBytes(24).toString("base64url"),
};
let te: TestEnv;
let token: string;
const started: ServerProcess[] = [];

beforeAll(async () => {
  te = await createTestEnv({ DATA_KEK: secrets.dataKek, AMS_WEBHOOK_ENCRYPTION_KEY: secrets.webhookKey, SCHEDULER_SECRET: secrets.schedulerSecret });
  await te.provision(PARTNER);
  await te.member(PARTNER, "boss", "admin");
  token = await te.token("boss");
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.kill("SIGTERM")));
  const errors = errorLines(started.flatMap((s) => s.logs));
  te?.close();
  expect(errors).toEqual([]);
});

async function start(env: Record<string, string>, name: string): Promise<ServerProcess> {
  const s = await startServerProcess(env, { name, onLog: (l) => te.logLines.push(l) });
  started.push(s);
  return s;
}

/** A request on a new connection each time (no pooled socket to a stopped process), so the kernel picks the listener. */
async function call(port: number, method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, connection: "close" };
  if (key) headers["idempotency-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive: false });
  return { status: res.status, text: await res.text() };
}

describe("REUSE_PORT: two instances on one host share one port", () => {
  // SO_REUSEPORT spreads connections on Linux only (Bun ignores reusePort elsewhere).
  test.skipIf(process.platform !== "linux")("both start on the same port with REUSE_PORT=true, and when one stops the port stays served by the other", async () => {
    const env = serverEnv(te, { ...secrets, logLevel: "info", extra: { REUSE_PORT: "true" } });
    const A = await start(env, "A");
    const B = await start({ ...env, PORT: String(A.port) }, "B");
    expect(B.port).toBe(A.port);
    const port = A.port;

    // Through the shared port: readiness and a keyed write, on fresh connections the kernel spreads.
    for (let i = 0; i < 10; i++) expect((await call(port, "GET", "/readyz")).status).toBe(200);
    const before = await call(port, "POST", `/api/assets/locations?partnerId=${PARTNER}`, { name: "Before the stop", kind: "site" }, "reuse-1");
    expect(before.status, before.text).toBe(201);

    // A stops gracefully (its listener closes); B alone serves the port from now on.
    expect(await A.kill("SIGTERM")).toBe(0);
    expect(A.logs.some((l) => l.includes("shut down gracefully"))).toBe(true);
    expect(B.alive()).toBe(true);
    for (let i = 0; i < 10; i++) expect((await call(port, "GET", "/readyz")).status).toBe(200);
    const after = await call(port, "POST", `/api/assets/locations?partnerId=${PARTNER}`, { name: "After the stop", kind: "site" }, "reuse-2");
    expect(after.status, after.text).toBe(201);
    // The first write's key replays through B: the same answer, applied once.
    const replay = await call(port, "POST", `/api/assets/locations?partnerId=${PARTNER}`, { name: "Before the stop", kind: "site" }, "reuse-1");
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(before.text);
    const rows = await sqlOf(te, PARTNER, "SELECT name FROM locations WHERE name IN ('Before the stop', 'After the stop') ORDER BY name", []);
    expect(rows.map((r) => r.name)).toEqual(["After the stop", "Before the stop"]);

    expect(await B.kill("SIGTERM")).toBe(0);
  }, 60_000);

  test("without REUSE_PORT (the default) a second process cannot start on a port the first holds", async () => {
    const env = serverEnv(te, secrets);
    const A = await start(env, "A0");
    await expect(startServerProcess({ ...env, PORT: String(A.port) }, { name: "B0" })).rejects.toThrow(/exited .* before listening/);
    expect((await call(A.port, "GET", "/readyz")).status).toBe(200);
    expect(await A.kill("SIGTERM")).toBe(0);
  }, 60_000);

  test("REUSE_PORT is true or false (default false)", () => {
    const base = { TENANTS_DIR: te.dir, JOBS: "off", LOG_LEVEL: "silent" };
    expect(loadConfig(base).reusePort).toBe(false);
    expect(loadConfig({ ...base, REUSE_PORT: "true" }).reusePort).toBe(true);
    expect(loadConfig({ ...base, REUSE_PORT: "false" }).reusePort).toBe(false);
    expect(() => loadConfig({ ...base, REUSE_PORT: "yes" })).toThrow(ConfigError);
  });
});
