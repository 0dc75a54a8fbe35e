// Per-partner libSQL databases: concurrent writes, connection pragmas that hold
// across many (and failing) transactions, reader isolation, no database created by
// a request, and the LRU of open handles.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { createTestEnv, type TestEnv } from "../harness.ts";
import { savedViews } from "../../src/assets/views/views.tables.ts";
import type { TenantTx } from "../../src/platform/tenancy/tenancy.ts";
import { expectProblem, expectFieldError } from "../contract/helpers.ts";

const envs: TestEnv[] = [];
afterAll(() => envs.forEach((e) => e.close()));
const env = await createTestEnv();
envs.push(env);

const P = "tenancy-co";
let owner = "";
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "owner-1", "owner");
  owner = await env.token("owner-1");
});

function viewRow(name: string) {
  const now = new Date().toISOString();
  return {
    id: Bun.randomUUIDv7(),
    userId: "owner-1",
    surface: "owned",
    name,
    nameKey: name.toLowerCase(),
    query: {},
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: "owner-1",
  };
}

async function withHandle<T>(partnerId: string, fn: (h: Awaited<ReturnType<TestEnv["deps"]["tenancy"]["acquire"]>>) => Promise<T>): Promise<T> {
  const h = await env.deps.tenancy.acquire(partnerId);
  try {
    return await fn(h);
  } finally {
    env.deps.tenancy.release(h);
  }
}

async function pragma(tx: TenantTx, name: string): Promise<unknown> {
  const row = (await tx.all<Record<string, unknown>>(sql.raw(`PRAGMA ${name}`)))[0] ?? {};
  return Object.values(row)[0];
}

/** Inserts a catalog model naming a category that does not exist. */
async function insertOrphan(tx: TenantTx): Promise<void> {
  const now = new Date().toISOString();
  await tx.run(
    sql`INSERT INTO catalog_models (id, name, category_id, created_at, updated_at, created_by) VALUES (${Bun.randomUUIDv7()}, 'orphan', 'no-such-category', ${now}, ${now}, 'test')`,
  );
}

describe("writes", () => {
  test("50 concurrent POST /saved-views to one partner all succeed", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        env.call("POST", `/api/assets/saved-views?partnerId=${P}`, { token: owner, body: { name: `Concurrent ${i}`, surface: "loaned", query: {} } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const list = await env.call("GET", `/api/assets/saved-views?partnerId=${P}&surface=loaned&limit=200`, { token: owner });
    expect(list.body.total).toBe(50);
    expect(new Set(list.body.items.map((v: { id: string }) => v.id)).size).toBe(50);
  });

  test(`after 200+ transactions, some failing, the writer keeps WAL, NORMAL, busy_timeout and foreign keys (${env.driver})`, async () => {
    await withHandle(P, async (h) => {
      const tenancy = env.deps.tenancy;
      let committed = 0;
      let failed = 0;
      for (let i = 0; i < 240; i++) {
        const kind = i % 4;
        try {
          await tenancy.writeTx(h, async (tx) => {
            await tx.insert(savedViews).values(viewRow(`Loop ${i}`));
            if (kind === 1) throw new Error("application failure inside the transaction");
            if (kind === 2) await tx.insert(savedViews).values(viewRow(`Loop ${i}`)); // unique violation
            if (kind === 3) await insertOrphan(tx); // FK violation
          });
          committed++;
        } catch {
          failed++;
        }
      }
      expect(committed).toBe(60);
      expect(failed).toBe(180);
      const loops = await h.db.read.select({ id: savedViews.id }).from(savedViews).where(sql`${savedViews.name} LIKE 'Loop %'`);
      expect(loops).toHaveLength(60);

      await tenancy.writeTx(h, async (tx) => {
        expect(String(await pragma(tx, "journal_mode")).toLowerCase()).toBe("wal");
        expect(Number(await pragma(tx, "synchronous"))).toBe(1);
        // A libSQL server sets its own lock waits; locally ours must hold.
        if (env.driver === "bun:sqlite") expect(Number(await pragma(tx, "busy_timeout"))).toBe(5000);
        expect(Number(await pragma(tx, "foreign_keys"))).toBe(1);
        let fkError: unknown;
        try {
          await insertOrphan(tx);
        } catch (err) {
          fkError = err;
        }
        // bun:sqlite throws the driver error; Drizzle wraps libSQL's, whose cause names the constraint.
        const e = fkError as { message?: string; cause?: unknown } | undefined;
        expect(`${e?.message} ${String(e?.cause)}`).toMatch(/FOREIGN KEY/i);
      });
      if (env.driver === "bun:sqlite") {
        // The local reader is query-only and enforces foreign keys too.
        const readerFk = await h.db.rawRead("PRAGMA foreign_keys");
        expect(Number(Object.values(readerFk[0] ?? {})[0])).toBe(1);
        expect(h.db.rawRead("DELETE FROM saved_views")).rejects.toThrow();
      }
    });
  });

  test("the reader never sees uncommitted rows", async () => {
    await withHandle(P, async (h) => {
      const row = viewRow("Uncommitted");
      const visible = () => h.db.read.select().from(savedViews).where(eq(savedViews.id, row.id));
      await env.deps.tenancy.writeTx(h, async (tx) => {
        await tx.insert(savedViews).values(row);
        expect(await tx.select().from(savedViews).where(eq(savedViews.id, row.id))).toHaveLength(1);
        expect(await visible()).toHaveLength(0);
        // Nor through HTTP while the transaction is open.
        const list = await env.call("GET", `/api/assets/saved-views?partnerId=${P}&limit=200&surface=owned`, { token: owner });
        expect(list.body.items.map((v: { id: string }) => v.id)).not.toContain(row.id);
      });
      expect(await visible()).toHaveLength(1);

      // A rolled-back transaction's rows are never visible.
      const lost = viewRow("Rolled back");
      await expect(
        env.deps.tenancy.writeTx(h, async (tx) => {
          await tx.insert(savedViews).values(lost);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await h.db.read.select().from(savedViews).where(eq(savedViews.id, lost.id))).toHaveLength(0);
    });
  });
});

describe("partner resolution", () => {
  test("a request for an unknown partner is 403 and creates no database file", async () => {
    const before = readdirSync(env.dir).sort();
    for (const pid of ["never-provisioned", "ghost-2"]) {
      expectProblem(await env.call("GET", `/api/assets/saved-views?partnerId=${pid}`, { token: owner }), 403, "partner_access_denied");
      expectProblem(
        await env.call("POST", `/api/assets/saved-views?partnerId=${pid}`, { token: owner, body: { name: "x", surface: "owned", query: {} } }),
        403,
        "partner_access_denied",
      );
      expect(existsSync(join(env.dir, `${pid}.db`))).toBe(false);
    }
    expect(readdirSync(env.dir).sort()).toEqual(before);
    expect((await env.deps.tenancy.listPartners()).map((p) => p.id)).toEqual([P]);
  });

  test("a partnerId that fails the pattern is 400", async () => {
    for (const pid of ["A", "ab_c", "-ab", "a", "a".repeat(64), "ab%2Fcd", "..", "ab.db"]) {
      expectFieldError(await env.call("GET", `/api/assets/saved-views?partnerId=${pid}`, { token: owner }), "/query/partnerId", pid);
    }
    // Provisioning refuses such ids too.
    expect(env.deps.tenancy.provision("../escape", "x", new Date().toISOString())).rejects.toThrow();
    expect(existsSync(join(env.dir, "..", "escape.db"))).toBe(false);
  });
});

describe("tenant LRU", () => {
  const IDS = ["lru-1", "lru-2", "lru-3", "lru-4", "lru-5", "lru-6"];
  let lru: TestEnv;
  let token = "";
  beforeAll(async () => {
    lru = await createTestEnv({ TENANT_CACHE_SIZE: "3" });
    envs.push(lru);
    for (const id of IDS) {
      await lru.provision(id);
      await lru.member(id, "roamer", "viewer");
    }
    token = await lru.token("roamer");
  });

  test("idle handles above TENANT_CACHE_SIZE are closed and reads still work", async () => {
    for (const id of IDS) {
      const res = await lru.call("POST", `/api/assets/saved-views?partnerId=${id}`, { token, body: { name: `In ${id}`, surface: "owned", query: {} } });
      expect(res.status).toBe(201);
      expect(lru.deps.tenancy.openCount).toBeLessThanOrEqual(3);
    }
    for (const id of [...IDS].reverse()) {
      const res = await lru.call("GET", `/api/assets/saved-views?partnerId=${id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.items.map((v: { name: string }) => v.name)).toEqual([`In ${id}`]);
    }
    expect(lru.deps.tenancy.openCount).toBeLessThanOrEqual(3);
  });

  test("concurrent requests to more partners than the cache holds all succeed, then the cache shrinks", async () => {
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        IDS.flatMap((id) => [
          lru.call("GET", `/api/assets/saved-views?partnerId=${id}`, { token }),
          lru.call("POST", `/api/assets/saved-views?partnerId=${id}`, { token, body: { name: `Round ${round}`, surface: "loaned", query: {} } }),
        ]),
      );
      expect(results.map((r) => r.status)).toEqual(IDS.flatMap(() => [200, 201]));
    }
    expect(lru.deps.tenancy.openCount).toBeLessThanOrEqual(3);
    for (const id of IDS) {
      const res = await lru.call("GET", `/api/assets/saved-views?partnerId=${id}&surface=loaned`, { token });
      expect(res.body.total).toBe(3);
    }
  });
});

describe.skipIf(env.driver !== "bun:sqlite")("partner database files", () => {
  test("are created readable and writable by the service user only (0600)", async () => {
    const { statSync } = await import("node:fs");
    await env.provision("mode-co");
    expect(statSync(join(env.dir, "mode-co.db")).mode & 0o777).toBe(0o600);
  });

  test("a registered partner whose file is missing answers 503 partner_unavailable and logs why, without the path", async () => {
    const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
    const record = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields });
    const lost = await createTestEnv({}, { log: { debug: record, info: record, warn: record, error: record } });
    envs.push(lost);
    await lost.provision("lost-co");
    await lost.member("lost-co", "owner-1", "owner");
    const { rmSync } = await import("node:fs");
    lost.deps.tenancy.close();
    await lost.deps.tenancy.init();
    for (const f of ["lost-co.db", "lost-co.db-wal", "lost-co.db-shm"]) rmSync(join(lost.dir, f), { force: true });
    const res = await lost.call("GET", "/api/assets/saved-views?partnerId=lost-co", { token: await lost.token("owner-1") });
    expectProblem(res, 503, "partner_unavailable");
    expect(existsSync(join(lost.dir, "lost-co.db"))).toBe(false);
    const logged = lines.find((l) => l.msg === "partner database unavailable");
    expect(logged?.fields).toMatchObject({ partnerId: "lost-co", reason: "database file missing" });
    expect(JSON.stringify(lines)).not.toContain(lost.dir);
  });
});
