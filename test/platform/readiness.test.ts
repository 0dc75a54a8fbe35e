// Issue 19 item 4: /healthz stays a liveness check; /readyz answers 503 while the
// registry, the content store (directory or S3) or a configured clamd cannot be reached,
// and at once when a graceful stop begins, before the port closes.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestEnv, type TestEnv } from "../harness.ts";
import { startFakeClamd } from "../fakes/fake-clamd.ts";
import { loadConfig } from "../../src/env.ts";
import { startServer } from "../../src/main.ts";

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverCtor = new (opts: { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverCtor;

const envs: TestEnv[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const e of envs) e.close();
  for (const c of cleanups) await c();
});
async function makeEnv(vars: Record<string, string> = {}) {
  const e = await createTestEnv(vars);
  envs.push(e);
  return e;
}
/** Past the report cache (1 s), so the next probe checks again. */
const pastCache = () => Bun.sleep(1100);

function expectNotReady(res: { status: number; headers: Headers; body: any }, checks: Record<string, string>) {
  expect(res.status).toBe(503);
  expect(res.headers.get("content-type")).toStartWith("application/problem+json");
  expect(res.headers.get("retry-after")).toBe("2");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.body).toMatchObject({ status: 503, code: "service_unavailable", checks });
  expect(res.body.checks).toEqual(checks);
}

describe("/readyz", () => {
  test("registry and a directory content store that answer: 200 ready, not cached by clients; /healthz stays 200", async () => {
    const env = await makeEnv();
    const res = await env.call("GET", "/readyz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready", checks: { registry: "ok", contentStore: "ok" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await env.call("GET", "/healthz")).body).toEqual({ status: "ok" });
  });

  test("a content store directory that cannot be used: 503 naming contentStore, not its path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "readyz-file-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const notADir = join(dir, "blobs");
    await writeFile(notADir, "a file where the directory should be");
    const env = await makeEnv({ CONTENT_STORE: `file:${notADir}` });
    const res = await env.call("GET", "/readyz");
    expectNotReady(res, { registry: "ok", contentStore: "failed" });
    expect(res.body.detail).toBe("not ready: contentStore failed");
    expect(JSON.stringify(res.body)).not.toContain(dir);
    // The failure is logged once, by check name only.
    const logged = env.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === "not ready");
    expect(logged).toEqual([expect.objectContaining({ level: "warn", checks: { registry: "ok", contentStore: "failed" } })]);
    expect(env.logLines.join("\n")).not.toContain(dir);
  });

  test("a registry that cannot be read: 503 naming registry", async () => {
    const env = await makeEnv();
    env.deps.tenancy.close();
    expectNotReady(await env.call("GET", "/readyz"), { registry: "failed", contentStore: "ok" });
  });

  test("S3 content store: ready while the bucket answers, 503 naming contentStore for a missing bucket and once s3rver stops, without host, port or bucket", async () => {
    const dir = await mkdtemp(join(tmpdir(), "readyz-s3-"));
    const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: "ready-bucket" }] });
    const { port } = await server.run();
    let running = true;
    cleanups.push(async () => {
      if (running) await server.close();
      await rm(dir, { recursive: true, force: true });
    });
    const s3 = (bucket: string) => ({
      CONTENT_STORE: `s3://${bucket}/blobs`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    });
    const env = await makeEnv(s3("ready-bucket"));
    const ready = await env.call("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ registry: "ok", contentStore: "ok" });
    // A bucket that does not exist is not ready either (a HEAD of a key could not tell it from a missing key).
    expectNotReady(await (await makeEnv(s3("missing-bucket"))).call("GET", "/readyz"), { registry: "ok", contentStore: "failed" });

    await server.close();
    running = false;
    await pastCache();
    const res = await env.call("GET", "/readyz");
    expectNotReady(res, { registry: "ok", contentStore: "failed" });
    const text = JSON.stringify(res.body) + env.logLines.join("\n");
    for (const leak of [String(port), "127.0.0.1", "ready-bucket"]) expect(text).not.toContain(leak);
  });

  test("a configured clamd: PING → PONG is ready; a probe storm costs one check; a stopped clamd is 503 naming scanner", async () => {
    const clamd = await startFakeClamd();
    let open = true;
    cleanups.push(async () => {
      if (open) await clamd.close();
    });
    const env = await makeEnv({ CLAMD_HOST: clamd.host, CLAMD_PORT: String(clamd.port) });
    const storm = await Promise.all(Array.from({ length: 20 }, () => env.call("GET", "/readyz")));
    expect(storm.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(storm[0]!.body.checks).toEqual({ registry: "ok", contentStore: "ok", scanner: "ok" });
    expect(clamd.pings).toBe(1);

    await clamd.close();
    open = false;
    await pastCache();
    const res = await env.call("GET", "/readyz");
    expectNotReady(res, { registry: "ok", contentStore: "ok", scanner: "failed" });
    expect(JSON.stringify(res.body)).not.toContain(String(clamd.port));
  });
});

describe("graceful stop", () => {
  test("/readyz answers 503 shuttingDown at once while the listener still serves (SHUTDOWN_DRAIN_MS), then the port closes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "readyz-stop-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const config = loadConfig({ TENANTS_DIR: dir, PORT: "0", JOBS: "off", LOG_LEVEL: "silent", SHUTDOWN_DRAIN_MS: "400" });
    const running = await startServer(config, { print: () => {}, demo: false });
    const url = `http://127.0.0.1:${running.port}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const stopped = running.stop();
    const during = await fetch(`${url}/readyz`);
    expect(during.status).toBe(503);
    expect(during.headers.get("retry-after")).toBe("2");
    expect(await during.json()).toMatchObject({ code: "service_unavailable", detail: "the service is shutting down", shuttingDown: true, checks: {} });
    // Liveness is not readiness: the process still serves while it drains.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    await stopped;
    await expect(fetch(`${url}/readyz`)).rejects.toThrow();
  });
});
