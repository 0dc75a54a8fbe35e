// Partner databases on a libSQL server: a `libsql://` TENANT_DB_URL template with
// TENANT_DB_AUTH_TOKEN, driven through the real app against a loopback server that
// speaks Hrana over HTTP as sqld does (test/fakes/hrana-server.ts). Migrations,
// writes, paging, concurrency and rollback all cross the wire; the server's stream
// log shows withTx running as one interactive transaction.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { LibsqlError } from "@libsql/client";
import { createTestEnv, TEST_SECRET, type TestEnv } from "../harness.ts";
import { loadConfig } from "../../src/env.ts";
import { createDeps } from "../../src/deps.ts";
import { expectProblem } from "../contract/helpers.ts";
import { startHranaServer, type StreamRecord } from "../fakes/hrana-server.ts";
import { savedViews } from "../../src/assets/views/views.tables.ts";
import { idempotencyKeys } from "../../src/platform/idempotency/idempotency.tables.ts";
import type { TenantHandle, TenantTx } from "../../src/platform/tenancy/tenancy.ts";

const TOKEN = `hrana-${randomBytes(16).toString("hex")}`;
const serverDir = mkdtempSync(join(tmpdir(), "hrana-fake-"));
const fake = startHranaServer({ dir: serverDir, authToken: TOKEN });
const envs: TestEnv[] = [];
afterAll(async () => {
  envs.forEach((e) => e.close());
  await fake.stop();
  rmSync(serverDir, { recursive: true, force: true });
});

const env = await createTestEnv({ TENANT_DB_URL: fake.template, TENANT_DB_AUTH_TOKEN: TOKEN });
envs.push(env);

const P = "remote-co";
let owner = "";
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "owner-1", "owner");
  owner = await env.token("owner-1");
});

const base = `/api/assets/saved-views?partnerId=${P}`;

/** Streams the server opened while fn ran. */
async function streamsDuring(fn: () => Promise<void>): Promise<StreamRecord[]> {
  const before = fake.streams.length;
  await fn();
  return fake.streams.slice(before).filter((s) => s.namespace === P);
}

const ran = (s: StreamRecord) => s.statements.filter((x) => !x.skipped).map((x) => x.sql);

/** A stream that ran BEGIN IMMEDIATE … COMMIT|ROLLBACK over several HTTP requests. */
function interactiveTx(s: StreamRecord, end: "COMMIT" | "ROLLBACK"): boolean {
  const stmts = ran(s);
  return s.httpRequests >= 2 && stmts[0] === "BEGIN IMMEDIATE" && stmts.at(-1) === end && s.closeReason === "close";
}

async function withHandle<T>(fn: (h: TenantHandle) => Promise<T>): Promise<T> {
  const h = await env.deps.tenancy.acquire(P);
  try {
    return await fn(h);
  } finally {
    env.deps.tenancy.release(h);
  }
}

function viewRow(name: string, surface = "owned") {
  const now = new Date().toISOString();
  return {
    id: Bun.randomUUIDv7(),
    userId: "owner-1",
    surface,
    name,
    nameKey: name.toLowerCase(),
    query: {},
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: "owner-1",
  };
}

describe("provisioning", () => {
  test("the URL template names a database on the server, migrated there through the client", () => {
    expect(fake.template.startsWith("libsql://{partnerId}.localhost:")).toBe(true);
    // Nothing local: the partner's database is the server's file.
    expect(existsSync(join(env.dir, `${P}.db`))).toBe(false);
    const file = new Database(fake.dbPath(P), { readonly: true });
    try {
      const applied = file.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
      // Every migration the repository ships, applied on the server.
      const shipped = (JSON.parse(readFileSync(join(import.meta.dir, "../../migrations/tenant/meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
      expect(applied.n).toBe(shipped);
      const tables = file.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["saved_views", "memberships", "idempotency_keys", "items_fts"]));
    } finally {
      file.close();
    }
    // client.migrate(): one batch with foreign keys off around BEGIN … COMMIT.
    const migration = fake.streams.find((s) => s.namespace === P && ran(s).includes("PRAGMA foreign_keys=off"));
    expect(migration).toBeDefined();
    const stmts = ran(migration!);
    expect(stmts.slice(0, 2)).toEqual(["PRAGMA foreign_keys=off", "BEGIN DEFERRED"]);
    expect(stmts.slice(-2)).toEqual(["COMMIT", "PRAGMA foreign_keys=on"]);
    expect(migration!.statements.every((s) => s.skipped || s.ok)).toBe(true);
    expect(fake.unauthorized).toBe(0);
  });

  test("with a libsql:// template the local registry's TENANTS_DIR is created when missing", async () => {
    // Config skips creating TENANTS_DIR for libsql:// URLs; the registry still lives there.
    const parent = mkdtempSync(join(tmpdir(), "remote-registry-"));
    const tenantsDir = join(parent, "not-yet");
    const config = loadConfig({
      TENANTS_DIR: tenantsDir,
      TENANT_DB_URL: fake.template,
      TENANT_DB_AUTH_TOKEN: TOKEN,
      DASHBOARD_JWT_SECRET: TEST_SECRET,
      DATA_KEK: randomBytes(32).toString("base64"),
      JOBS: "off",
      LOG_LEVEL: "silent",
    });
    const deps = await createDeps(config);
    try {
      const made = await deps.tenancy.provision("fresh-co", "Fresh", new Date().toISOString());
      expect(made.created).toBe(true);
      expect(existsSync(join(tenantsDir, "_registry.db"))).toBe(true);
      expect(existsSync(join(tenantsDir, "fresh-co.db"))).toBe(false);
      expect(existsSync(fake.dbPath("fresh-co"))).toBe(true);
    } finally {
      deps.tenancy.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });

  test("provisioning again is idempotent and applies nothing", async () => {
    await env.provision(P);
    expect(await env.deps.tenancy.migrate(P)).toBe(false);
  });
});

describe("saved views through the app", () => {
  test("create, replay by Idempotency-Key, read back", async () => {
    const body = { name: "Remote first", surface: "owned", query: { limit: 25 } };
    const first = await env.call("POST", base, { token: owner, body, idem: "remote-create-1" });
    expect(first.status).toBe(201);
    expect(first.body.name).toBe("Remote first");
    expect(first.body.query).toEqual({ limit: 25 });
    const replay = await env.call("POST", base, { token: owner, body, idem: "remote-create-1" });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const list = await env.call("GET", `${base}&surface=owned`, { token: owner });
    expect(list.status).toBe(200);
    expect(list.body.items.map((v: { id: string }) => v.id)).toEqual([first.body.id]);
  });

  test("a write is one interactive transaction: a baton carried from BEGIN IMMEDIATE to COMMIT", async () => {
    const streams = await streamsDuring(async () => {
      const res = await env.call("POST", base, { token: owner, body: { name: "Tx proof", surface: "owned", query: {} } });
      expect(res.status).toBe(201);
    });
    const tx = streams.filter((s) => interactiveTx(s, "COMMIT"));
    expect(tx).toHaveLength(1);
    const stmts = ran(tx[0]!);
    // The idempotency lookup, the name check, the insert and the key record share the stream.
    expect(stmts.some((s) => /^insert into "saved_views"/i.test(s))).toBe(true);
    expect(stmts.some((s) => /^insert into "idempotency_keys"/i.test(s))).toBe(true);
    expect(tx[0]!.httpRequests).toBeGreaterThanOrEqual(3);
    expect(fake.openStreams()).toBe(0);
  });

  test("20 concurrent POSTs all succeed, and the list pages through all of them", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        env.call("POST", base, { token: owner, body: { name: `Concurrent ${String(i).padStart(2, "0")}`, surface: "loaned", query: {} } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await env.call("GET", `${base}&surface=loaned&limit=6${q}`, { token: owner });
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(20);
      expect(page.body.items.length).toBeLessThanOrEqual(6);
      seen.push(...page.body.items.map((v: { id: string }) => v.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(20);
    expect(new Set(seen)).toEqual(new Set(results.map((r) => r.body.id)));
  });

  test("a duplicate name is a 409 that rolls back: no row, and its Idempotency-Key stays unused", async () => {
    const ok = await env.call("POST", base, { token: owner, body: { name: "Dup name", surface: "checkouts", query: {} } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const streams = await streamsDuring(async () => {
      const dup = await env.call("POST", base, { token: owner, body: { name: "  DUP   name ", surface: "checkouts", query: {} }, idem: "dup-key" });
      expectProblem(dup, 409, "duplicate");
    });
    expect(streams.filter((s) => interactiveTx(s, "ROLLBACK"))).toHaveLength(1);
    await withHandle(async (h) => {
      const rows = await h.db.read.select().from(savedViews).where(and(eq(savedViews.surface, "checkouts"), eq(savedViews.nameKey, "dup name")));
      expect(rows).toHaveLength(1);
      const keys = await h.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "dup-key"));
      expect(keys).toHaveLength(0);
    });
    // The key was not recorded, so it is free for a different request.
    const reuse = await env.call("POST", base, { token: owner, body: { name: "Not a dup", surface: "checkouts", query: {} }, idem: "dup-key" });
    expect(reuse.status, JSON.stringify(reuse.body)).toBe(201);
    expect(reuse.headers.get("idempotency-replayed")).toBeNull();
  });
});

describe("transactions on the server", () => {
  test("a statement failing inside writeTx rolls back what the transaction already wrote", async () => {
    await withHandle(async (h) => {
      const first = viewRow("Rolled back");
      const err = await env.deps.tenancy
        .writeTx(h, async (tx: TenantTx) => {
          await tx.insert(savedViews).values(first);
          // Same user, surface and name key: the unique index fails on the server.
          await tx.insert(savedViews).values({ ...viewRow("Rolled back"), id: Bun.randomUUIDv7() });
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      const cause = (err as Error & { cause?: unknown }).cause ?? err;
      expect(cause).toBeInstanceOf(LibsqlError);
      expect((cause as LibsqlError).code).toBe("SQLITE_CONSTRAINT");
      expect(await h.db.read.select().from(savedViews).where(eq(savedViews.id, first.id))).toHaveLength(0);
    });
  });

  test("foreign keys are enforced on the server's connections", async () => {
    await withHandle(async (h) => {
      const now = new Date().toISOString();
      const err = await env.deps.tenancy
        .writeTx(h, (tx) =>
          tx.run(
            sql`INSERT INTO catalog_models (id, name, category_id, created_at, updated_at, created_by) VALUES (${Bun.randomUUIDv7()}, 'orphan', 'no-such-category', ${now}, ${now}, 'test')`,
          ),
        )
        .catch((e: unknown) => e);
      expect(String((err as Error).message) + String((err as Error & { cause?: Error }).cause?.message)).toContain("FOREIGN KEY constraint failed");
    });
  });

  test("the reader never sees a transaction's uncommitted rows", async () => {
    await withHandle(async (h) => {
      const row = viewRow("Isolated");
      const readById = () => h.db.read.select().from(savedViews).where(eq(savedViews.id, row.id));
      await env.deps.tenancy.writeTx(h, async (tx) => {
        await tx.insert(savedViews).values(row);
        expect(await tx.select().from(savedViews).where(eq(savedViews.id, row.id))).toHaveLength(1);
        expect(await readById()).toHaveLength(0);
      });
      expect(await readById()).toHaveLength(1);
    });
  });
});

describe("the auth token", () => {
  test("a wrong or missing TENANT_DB_AUTH_TOKEN fails provisioning without revealing a token", async () => {
    const wrong = `wrong-${randomBytes(12).toString("hex")}`;
    const authEnvs: Array<Record<string, string>> = [{ TENANT_DB_AUTH_TOKEN: wrong }, {}];
    for (const authEnv of authEnvs) {
      const bad = await createTestEnv({ TENANT_DB_URL: fake.template, ...authEnv });
      envs.push(bad);
      const refusedBefore = fake.unauthorized;
      const err = await bad.provision("denied-co").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      const text = `${(err as Error).message} ${(err as Error).stack ?? ""} ${String((err as Error & { cause?: unknown }).cause ?? "")}`;
      expect(text).toContain("401");
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(TOKEN);
      expect(fake.unauthorized).toBeGreaterThan(refusedBefore);
      expect(await bad.deps.tenancy.partnerExists("denied-co")).toBe(false);
    }
  });
});

describe("the fake server speaks Hrana as sqld does", () => {
  const origin = `http://${P}.localhost:${fake.port}`;
  interface StmtResult {
    rows: unknown[][];
  }
  interface PipelineBody {
    baton: string | null;
    results: Array<{
      type: "ok" | "error";
      error?: { message: string; code: string };
      response?: {
        type: string;
        is_autocommit?: boolean;
        result?: StmtResult & { step_results: Array<StmtResult | null>; step_errors: Array<{ message: string; code: string } | null> };
      };
    }>;
  }
  async function pipeline(version: 2 | 3, body: unknown, token = TOKEN): Promise<{ status: number; body: PipelineBody; text: string }> {
    const res = await fetch(`${origin}/v${version}/pipeline`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const json = res.headers.get("content-type") === "application/json" ? (JSON.parse(text) as PipelineBody) : { baton: null, results: [] };
    return { status: res.status, body: json, text };
  }
  const stmt = (s: string, args: unknown[] = []) => ({ sql: s, args, named_args: [], want_rows: true });

  test("batch conditions, per-step errors and is_autocommit (v3)", async () => {
    const r = await pipeline(3, {
      baton: null,
      requests: [
        {
          type: "batch",
          batch: {
            steps: [
              { stmt: stmt("BEGIN") },
              { stmt: stmt("SELECT no_such_column FROM saved_views"), condition: { type: "ok", step: 0 } },
              { stmt: stmt("SELECT 1"), condition: { type: "error", step: 1 } },
              { stmt: stmt("SELECT 2"), condition: { type: "and", conds: [{ type: "ok", step: 0 }, { type: "not", cond: { type: "is_autocommit" } }] } },
              { stmt: stmt("SELECT 3"), condition: { type: "or", conds: [{ type: "ok", step: 1 }, { type: "is_autocommit" }] } },
              { stmt: stmt("ROLLBACK") },
            ],
          },
        },
        { type: "get_autocommit" },
        { type: "execute", stmt: stmt("SELECT ? AS i, ? AS f, ? AS t, ? AS n", [{ type: "integer", value: "9007199254740993" }, { type: "float", value: 1.5 }, { type: "text", value: "x" }, { type: "null" }]) },
        { type: "close" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.baton).toBeNull();
    const [batch, autocommit, exec, close] = r.body.results.map((x) => x.response);
    expect(batch?.result?.step_results.map((x) => x !== null)).toEqual([true, false, true, true, false, true]);
    expect(batch?.result?.step_errors.map((x) => x?.code ?? null)).toEqual([null, "SQL_INPUT_ERROR", null, null, null, null]);
    expect(autocommit).toEqual({ type: "get_autocommit", is_autocommit: true });
    expect(exec?.result?.rows[0]).toEqual([
      { type: "integer", value: "9007199254740993" },
      { type: "float", value: 1.5 },
      { type: "text", value: "x" },
      { type: "null" },
    ]);
    expect(close?.type).toBe("close");
  });

  test("v2 refuses v3 features; batons are single-use; SQL errors are results, not HTTP errors", async () => {
    const v2 = await pipeline(2, { requests: [{ type: "get_autocommit" }] });
    expect(v2.status).toBe(400);
    const open = await pipeline(2, { requests: [{ type: "execute", stmt: stmt("INSERT INTO saved_views (id) VALUES ('x')") }] });
    expect(open.status).toBe(200);
    const [failed] = open.body.results;
    expect(failed?.type).toBe("error");
    expect(failed?.error?.code).toBe("SQLITE_CONSTRAINT");
    expect(failed?.error?.message).toStartWith("SQLite error: NOT NULL constraint failed");
    const baton = open.body.baton;
    expect(typeof baton).toBe("string");
    const next = await pipeline(2, { baton, requests: [{ type: "close" }] });
    expect(next.status).toBe(200);
    const again = await pipeline(2, { baton, requests: [{ type: "close" }] });
    expect(again.status).toBe(400);
    const denied = await pipeline(2, { requests: [{ type: "close" }] }, "nope");
    expect(denied.status).toBe(401);
    expect(denied.text).not.toContain("nope");
  });
});
