// When a partner's database fails, the API answers 503 partner_unavailable with
// Retry-After, never 500, and leaves nothing half-written. Told against the loopback
// libSQL server (test/fakes/hrana-server.ts) switched into an outage: the server
// gone (connections refused or cut, its streams rolled back) or a proxy in front of
// it answering 503. Reads, snapshots, write transactions, migrations at open and
// job runs all meet it; each request after the server is back succeeds. Local files
// that are corrupt or locked by another process answer the same.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createTestEnv, type CallResult, type TestEnv } from "../harness.ts";
import { expectProblem } from "../contract/helpers.ts";
import { startHranaServer } from "../fakes/hrana-server.ts";
import { savedViews } from "../../src/assets/views/views.tables.ts";
import { jobRuns } from "../../src/platform/jobs/jobs.tables.ts";
import { idempotencyKeys } from "../../src/platform/idempotency/idempotency.tables.ts";
import { runJob } from "../../src/jobs/run-job.ts";
import { housekeepingJob } from "../../src/jobs/housekeeping.job.ts";
import { unavailableCause } from "../../src/platform/db/unavailable.ts";

const TOKEN = `hrana-${randomBytes(16).toString("hex")}`;
const serverDir = mkdtempSync(join(tmpdir(), "hrana-outage-"));
// Streams expire after 1 s (sqld: 10 s), so a transaction a proxy cut off lets go of its lock soon.
const fake = startHranaServer({ dir: serverDir, authToken: TOKEN, streamExpiryMs: 1000 });
const envs: TestEnv[] = [];
afterAll(async () => {
  await fake.setFault(undefined);
  for (const e of envs) e.close();
  await fake.stop();
  rmSync(serverDir, { recursive: true, force: true });
});

const env = await createTestEnv({ TENANT_DB_URL: fake.template, TENANT_DB_AUTH_TOKEN: TOKEN });
envs.push(env);
const P = "outage-co";
let owner = "";
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "owner-1", "owner");
  owner = await env.token("owner-1");
});

const views = (partnerId = P) => `/api/assets/saved-views?partnerId=${partnerId}`;
const insertsView = (statements: string[]) => statements.some((s) => /^insert into "saved_views"/i.test(s));

function expectUnavailable(res: CallResult, label = ""): void {
  expectProblem(res, 503, "partner_unavailable", label);
  expect(res.headers.get("retry-after"), label).toBe("5");
}

/** Log lines of an env from index `from` on, parsed. */
function logsSince(e: TestEnv, from: number): Array<Record<string, unknown>> {
  return e.logLines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Nothing that locates or opens the database reaches a log line. */
function expectNoLocation(lines: Array<Record<string, unknown>>): void {
  const text = JSON.stringify(lines);
  for (const secret of [TOKEN, `:${fake.port}`, "localhost", "127.0.0.1", serverDir]) expect(text).not.toContain(secret);
}

async function viewNamesOnServer(partnerId = P): Promise<string[]> {
  const file = new Database(fake.dbPath(partnerId), { readonly: true });
  try {
    return (file.query("SELECT name FROM saved_views ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    file.close();
  }
}

describe("a partner database on a libSQL server that fails", () => {
  test("while the server is down, reads answer 503 partner_unavailable with Retry-After; the next request after it is back succeeds", async () => {
    const made = await env.call("POST", views(), { token: owner, body: { name: "Before the outage", surface: "owned", query: {} } });
    expect(made.status).toBe(201);
    const from = env.logLines.length;
    await fake.setFault("down");
    try {
      // A page and its total (one read snapshot), a single record, and the caller's capabilities.
      expectUnavailable(await env.call("GET", `${views()}&surface=owned`, { token: owner }), "list");
      expectUnavailable(await env.call("GET", `/api/assets/saved-views/${made.body.id}?partnerId=${P}`, { token: owner }), "get");
      expectUnavailable(await env.call("GET", `/api/me?partnerId=${P}`, { token: owner }), "me");
    } finally {
      await fake.setFault(undefined);
    }
    const logged = logsSince(env, from).filter((l) => l.msg === "partner database unavailable");
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(logged[0]).toMatchObject({ level: "error", partnerId: P, reason: "network failure (ECONNREFUSED)" });
    expect(logsSince(env, from).some((l) => l.msg === "unhandled error")).toBe(false);
    expectNoLocation(logsSince(env, from));

    const back = await env.call("GET", `${views()}&surface=owned`, { token: owner });
    expect(back.status).toBe(200);
    expect(back.body.items.map((v: { name: string }) => v.name)).toContain("Before the outage");
  });

  test("a proxy answering 503 in front of the server: reads and writes are 503 partner_unavailable and nothing is applied", async () => {
    await fake.setFault("http-503");
    try {
      expectUnavailable(await env.call("GET", `${views()}&surface=loaned`, { token: owner }), "read");
      expectUnavailable(await env.call("POST", views(), { token: owner, body: { name: "Through the proxy", surface: "loaned", query: {} }, idem: "proxy-1" }), "write");
    } finally {
      await fake.setFault(undefined);
    }
    expect(await viewNamesOnServer()).not.toContain("Through the proxy");
    const retried = await env.call("POST", views(), { token: owner, body: { name: "Through the proxy", surface: "loaned", query: {} }, idem: "proxy-1" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotency-replayed")).toBeNull();
  });

  test("a write whose server goes down mid-transaction is 503; nothing is half-written, and once it is back the same Idempotency-Key applies it once", async () => {
    const body = { name: "Cut off mid-write", surface: "checkouts", query: {} };
    // The server answers the request that inserted the view, then dies before the key record and COMMIT.
    await fake.setFault("down", { after: insertsView });
    let res: CallResult;
    try {
      res = await env.call("POST", views(), { token: owner, body, idem: "mid-tx-1" });
    } finally {
      await fake.setFault(undefined);
    }
    expectUnavailable(res, "mid-transaction");
    // The server rolled the open transaction back when its connection closed.
    expect(await viewNamesOnServer()).not.toContain("Cut off mid-write");
    const keys = await env.deps.tenancy.acquire(P).then(async (h) => {
      try {
        return await h.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "mid-tx-1"));
      } finally {
        env.deps.tenancy.release(h);
      }
    });
    expect(keys).toHaveLength(0);

    const retried = await env.call("POST", views(), { token: owner, body, idem: "mid-tx-1" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotency-replayed")).toBeNull();
    const replay = await env.call("POST", views(), { token: owner, body, idem: "mid-tx-1" });
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect((await viewNamesOnServer()).filter((n) => n === "Cut off mid-write")).toHaveLength(1);
  });

  test("a write cut off by a proxy's 503s mid-transaction leaves nothing, and the retry with the same key applies it once", async () => {
    const body = { name: "Proxy cut", surface: "audits", query: {} };
    await fake.setFault("http-503", { after: insertsView });
    let res: CallResult;
    try {
      res = await env.call("POST", views(), { token: owner, body, idem: "proxy-cut-1" });
    } finally {
      await fake.setFault(undefined);
    }
    expectUnavailable(res, "proxy mid-transaction");
    expect(await viewNamesOnServer()).not.toContain("Proxy cut");
    // The cut-off transaction never committed (the server rolls it back when the client's close or the stream expiry arrives).
    const retried = await env.call("POST", views(), { token: owner, body, idem: "proxy-cut-1" });
    expect(retried.status).toBe(201);
    expect((await viewNamesOnServer()).filter((n) => n === "Proxy cut")).toHaveLength(1);
  });

  test("a partner first opened while its server is down (migrations run at open) answers 503, then opens once it is back", async () => {
    await env.provision("late-co");
    await env.member("late-co", "owner-1", "owner");
    // Nothing open: the next request opens (and migrates) the database again.
    env.deps.tenancy.close();
    await env.deps.tenancy.init();
    const from = env.logLines.length;
    await fake.setFault("down");
    try {
      expectUnavailable(await env.call("GET", views("late-co"), { token: owner }), "open");
    } finally {
      await fake.setFault(undefined);
    }
    expect(logsSince(env, from).find((l) => l.msg === "partner database unavailable")).toMatchObject({
      partnerId: "late-co",
      reason: "migration failed (network failure (ECONNREFUSED))",
    });
    expect((await env.call("GET", views("late-co"), { token: owner })).status).toBe(200);
  });

  test("a job run while the server is down fails with the reason and throws nothing; the next run succeeds and is recorded", async () => {
    // The partner is open (so the run gets as far as its lease) when the server goes away.
    expect((await env.call("GET", views(), { token: owner })).status).toBe(200);
    const from = env.logLines.length;
    await fake.setFault("down");
    let failed;
    try {
      failed = await runJob(env.deps, housekeepingJob, { partnerId: P });
    } finally {
      await fake.setFault(undefined);
    }
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ partnerId: P, status: "failed", processed: 0 });
    expect(failed[0]!.detail).toBe(`partner ${P} database unavailable: network failure (ECONNREFUSED)`);
    // Nowhere to record it while the database is down: the service log says so.
    const lines = logsSince(env, from);
    expect(lines.some((l) => l.msg === "job run could not be recorded" && l.runId === failed[0]!.runId)).toBe(true);
    expectNoLocation(lines);

    // Something for housekeeping to do (a run record past retention), so the next run is due and recorded.
    const old = new Date(env.deps.clock.now().getTime() - 40 * 24 * 3600_000).toISOString();
    const h = await env.deps.tenancy.acquire(P);
    try {
      await env.deps.tenancy.writeTx(h, (tx) => tx.insert(jobRuns).values({ id: "ancient-run", job: "x", status: "succeeded", startedAt: old, finishedAt: old }));
    } finally {
      env.deps.tenancy.release(h);
    }
    const [ok] = await runJob(env.deps, housekeepingJob, { partnerId: P });
    expect(ok).toMatchObject({ status: "succeeded", processed: 1 });
    const recorded = await env.deps.tenancy.acquire(P).then(async (h) => {
      try {
        return await h.db.read.select().from(jobRuns).where(eq(jobRuns.job, housekeepingJob.name));
      } finally {
        env.deps.tenancy.release(h);
      }
    });
    expect(recorded.map((r) => [r.id, r.status])).toContainEqual([ok!.runId, "succeeded"]);
    expect(recorded.some((r) => r.id === failed[0]!.runId)).toBe(false);
  });

  test("a server that refuses the configured token is 503 partner_unavailable, not 500", async () => {
    // A second instance over the same registry whose TENANT_DB_AUTH_TOKEN the server no longer accepts.
    const wrong = `stale-${randomBytes(12).toString("hex")}`;
    const stale = await createTestEnv({ TENANTS_DIR: env.dir, TENANT_DB_URL: fake.template, TENANT_DB_AUTH_TOKEN: wrong });
    envs.push(stale);
    const res = await stale.call("GET", views(), { token: await stale.token("owner-1") });
    expectUnavailable(res, "token refused");
    expect(logsSince(stale, 0).find((l) => l.msg === "partner database unavailable")).toMatchObject({
      reason: "migration failed (server refused the credentials (HTTP 401))",
    });
    expect(JSON.stringify(stale.logLines)).not.toContain(wrong);
  });

  test("SQL errors stay what they are: a duplicate is 409, a constraint failure in a transaction is no outage", async () => {
    const body = { name: "Only once", surface: "shipments", query: {} };
    expect((await env.call("POST", views(), { token: owner, body })).status).toBe(201);
    expectProblem(await env.call("POST", views(), { token: owner, body }), 409, "duplicate");
    const h = await env.deps.tenancy.acquire(P);
    try {
      const err = await env.deps.tenancy
        .writeTx(h, async (tx) => {
          await tx.insert(savedViews).values({ id: Bun.randomUUIDv7(), userId: "owner-1", surface: "owned", name: "x", nameKey: "x", query: {}, version: 1, createdAt: "t", updatedAt: "t", createdBy: "owner-1" });
          await tx.insert(savedViews).values({ id: Bun.randomUUIDv7(), userId: "owner-1", surface: "owned", name: "x", nameKey: "x", query: {}, version: 1, createdAt: "t", updatedAt: "t", createdBy: "owner-1" });
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(unavailableCause(err)).toBeUndefined();
      expect((err as Error & { cause?: { code?: string } }).cause?.code).toBe("SQLITE_CONSTRAINT");
    } finally {
      env.deps.tenancy.release(h);
    }
  });
});

describe("a partner database in a local file that fails", () => {
  // Local files whatever TEST_DB_DRIVER says.
  let local: TestEnv;
  let token = "";
  beforeAll(async () => {
    local = await createTestEnv({ TENANT_DB_URL: "file:{TENANTS_DIR}/{partnerId}.db" });
    envs.push(local);
    for (const p of ["corrupt-co", "locked-co"]) {
      await local.provision(p);
      await local.member(p, "owner-1", "owner");
    }
    token = await local.token("owner-1");
  });

  test("a corrupt file answers 503 partner_unavailable with Retry-After", async () => {
    local.deps.tenancy.close();
    await local.deps.tenancy.init();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(local.dir, `corrupt-co.db${suffix}`), { force: true });
    writeFileSync(join(local.dir, "corrupt-co.db"), Buffer.alloc(8192, "not a database "), { mode: 0o600 });
    const from = local.logLines.length;
    expectUnavailable(await local.call("GET", views("corrupt-co"), { token }), "corrupt");
    expect(logsSince(local, from).find((l) => l.msg === "partner database unavailable")).toMatchObject({
      partnerId: "corrupt-co",
      reason: "open failed (database cannot serve (SQLITE_NOTADB))",
    });
    expect(JSON.stringify(logsSince(local, from))).not.toContain(local.dir);
  });

  test("a file another process keeps locked past the busy timeout: the write is 503, nothing applied; once released the same key applies", async () => {
    const body = { name: "Waited for the lock", surface: "owned", query: {} };
    expect((await local.call("GET", views("locked-co"), { token })).status).toBe(200);
    // Another process (an operator's sqlite3 shell, say) holds the write lock.
    const other = new Database(join(local.dir, "locked-co.db"));
    other.run("BEGIN IMMEDIATE");
    let res: CallResult;
    try {
      res = await local.call("POST", views("locked-co"), { token, body, idem: "locked-1" });
      // Reads go on: WAL readers do not wait for the writer.
      expect((await local.call("GET", views("locked-co"), { token })).status).toBe(200);
    } finally {
      other.run("ROLLBACK");
      other.close();
    }
    expectUnavailable(res, "locked");
    const after = await local.call("GET", `${views("locked-co")}&surface=owned`, { token });
    expect(after.body.items).toEqual([]);
    const retried = await local.call("POST", views("locked-co"), { token, body, idem: "locked-1" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotency-replayed")).toBeNull();
  }, 20_000);
});
