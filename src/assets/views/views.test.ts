// Saved views and drafts, told as a user's story through the HTTP API.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";

const clock = new MutableClock(new Date("2026-04-01T09:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

const P = "views-co";
const VIEWS = `/api/assets/saved-views?partnerId=${P}`;
const view = (id: string) => `/api/assets/saved-views/${id}?partnerId=${P}`;
const draft = (key: string, route?: string) => `/api/assets/drafts/${key}?partnerId=${P}${route === undefined ? "" : `&route=${encodeURIComponent(route)}`}`;
const tok = (userId: string) => env.token(userId);

beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "mia", "viewer");
  await env.member(P, "max", "operator");
});

describe("saved views", () => {
  test("create, list, rename with version + 1, stale version is 409, delete", async () => {
    const t = await tok("mia");
    const created = await env.call("POST", VIEWS, { token: t, body: { name: "  Broken drills ", surface: "owned", query: { q: " drill ", condition: ["broken"], limit: 25 } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Broken drills", surface: "owned", query: { q: "drill", condition: ["broken"], limit: 25 }, version: 1, createdBy: "mia" });
    expect(created.body.createdAt).toBe(clock.now().toISOString());
    expect(created.headers.get("location")).toBe(`/api/assets/saved-views/${created.body.id}?partnerId=${P}`);
    const id: string = created.body.id;

    const list = await env.call("GET", VIEWS, { token: t });
    expect(list.body.items).toEqual([created.body]);

    clock.advance(1000);
    const renamed = await env.call("PATCH", view(id), { token: t, body: { expectedVersion: 1, name: "Broken tools" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: "Broken tools", version: 2, query: created.body.query, createdAt: created.body.createdAt });
    expect(renamed.body.updatedAt).toBe(clock.now().toISOString());

    const requery = await env.call("PATCH", view(id), { token: t, body: { expectedVersion: 2, query: { lifecycle: "active" } } });
    expect(requery.body).toMatchObject({ name: "Broken tools", version: 3, query: { lifecycle: "active" } });

    expectProblem(await env.call("PATCH", view(id), { token: t, body: { expectedVersion: 2, name: "Stale" } }), 409, "version_conflict");
    expectFieldError(await env.call("PATCH", view(id), { token: t, body: { name: "No version" } }), "/body/expectedVersion");
    expect((await env.call("GET", VIEWS, { token: t })).body.items[0]).toMatchObject({ name: "Broken tools", version: 3 });

    expect((await env.call("DELETE", view(id), { token: t })).status).toBe(204);
    expect((await env.call("GET", VIEWS, { token: t })).body.items).toEqual([]);
    expectProblem(await env.call("PATCH", view(id), { token: t, body: { expectedVersion: 3, name: "Gone" } }), 404, "not_found");
    expectProblem(await env.call("DELETE", view(id), { token: t }), 404, "not_found");
  });

  test("names are unique per surface, case-insensitively after normalisation", async () => {
    const t = await tok("mia");
    const first = await env.call("POST", VIEWS, { token: t, body: { name: "My View", surface: "checkouts", query: {} } });
    expect(first.status).toBe(201);
    for (const name of ["  my   view ", "MY VIEW", "My\tView", "Ｍｙ Ｖｉｅｗ"]) {
      expectProblem(await env.call("POST", VIEWS, { token: t, body: { name, surface: "checkouts", query: {} } }), 409, "duplicate", name);
    }
    const elsewhere = await env.call("POST", VIEWS, { token: t, body: { name: "my view", surface: "shipments", query: {} } });
    expect(elsewhere.status).toBe(201);
    // Another user may use the same name on the same surface.
    expect((await env.call("POST", VIEWS, { token: await tok("max"), body: { name: "My View", surface: "checkouts", query: {} } })).status).toBe(201);
    // Renaming onto a taken name is a duplicate too; renaming to its own name in another case is fine.
    const other = await env.call("POST", VIEWS, { token: t, body: { name: "Other", surface: "checkouts", query: {} } });
    expectProblem(await env.call("PATCH", view(other.body.id), { token: t, body: { expectedVersion: 1, name: "MY view" } }), 409, "duplicate");
    const recase = await env.call("PATCH", view(first.body.id), { token: t, body: { expectedVersion: 1, name: "MY VIEW" } });
    expect(recase.status).toBe(200);
    expect(recase.body.name).toBe("MY VIEW");
  });

  test("only the surface's filter keys are accepted; owner and actor fields are refused", async () => {
    const t = await tok("mia");
    expectFieldError(await env.call("POST", VIEWS, { token: t, body: { name: "Bad key", surface: "shipments", query: { lifecycle: "active" } } }), "/body/query/lifecycle");
    expectFieldError(await env.call("POST", VIEWS, { token: t, body: { name: "Bad limit", surface: "owned", query: { limit: 500 } } }), "/body/query/limit");
    expectFieldError(await env.call("POST", VIEWS, { token: t, body: { name: "Bad surface", surface: "nowhere", query: {} } }), "/body/surface");
    expectFieldError(await env.call("POST", VIEWS, { token: t, body: { name: "   ", surface: "owned", query: {} } }), "/body/name");
    for (const field of ["ownerId", "createdBy", "userId", "version"]) {
      expectFieldError(await env.call("POST", VIEWS, { token: t, body: { name: `With ${field}`, surface: "owned", query: {}, [field]: "max" } }), `/body/${field}`);
    }
    const v = await env.call("POST", VIEWS, { token: t, body: { name: "Patch target", surface: "alerts", query: {} } });
    expectFieldError(await env.call("PATCH", view(v.body.id), { token: t, body: { expectedVersion: 1, query: { q: "x" } } }), "/body/query/q");
    expectFieldError(await env.call("PATCH", view(v.body.id), { token: t, body: { expectedVersion: 1, ownerId: "max" } }), "/body/ownerId");
    expectFieldError(await env.call("GET", `${VIEWS}&surface=nowhere`, { token: t }), "/query/surface");
  });

  test("another user can neither see nor change my view", async () => {
    const mine = await env.call("POST", VIEWS, { token: await tok("mia"), body: { name: "Private", surface: "audits", query: {} } });
    const max = await tok("max");
    const theirs = await env.call("GET", `${VIEWS}&surface=audits`, { token: max });
    expect(theirs.body.items).toEqual([]);
    expectProblem(await env.call("PATCH", view(mine.body.id), { token: max, body: { expectedVersion: 1, name: "Mine now" } }), 404, "not_found");
    expectProblem(await env.call("DELETE", view(mine.body.id), { token: max }), 404, "not_found");
    const still = await env.call("GET", `${VIEWS}&surface=audits`, { token: await tok("mia") });
    expect(still.body.items).toEqual([mine.body]);
  });
});

describe("drafts", () => {
  /** Row counts of every table but the two a draft request may write. */
  async function otherTableCounts(): Promise<Record<string, number>> {
    const h = await env.deps.tenancy.acquire(P);
    try {
      const tables = await h.db.read.all<{ name: string }>(
        sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('drafts', 'idempotency_keys') ORDER BY name`,
      );
      const out: Record<string, number> = {};
      for (const { name } of tables) {
        const row = await h.db.read.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM "${name}"`));
        out[name] = Number(row?.n ?? 0);
      }
      return out;
    } finally {
      env.deps.tenancy.release(h);
    }
  }

  test("save (201), replace (200, version + 1), load, delete; nothing else changes", async () => {
    const t = await tok("mia");
    const before = await otherTableCounts();
    expect(before).toHaveProperty("outbox");

    const first = await env.call("PUT", draft("checkout-wizard"), { token: t, body: { route: "/checkouts/new", payload: { step: 1, itemIds: ["a"] } } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ workflowKey: "checkout-wizard", route: "/checkouts/new", payload: { step: 1, itemIds: ["a"] }, version: 1 });
    expect(first.body.expiresAt).toBe(new Date(clock.now().getTime() + 30 * 86_400_000).toISOString());

    const second = await env.call("PUT", draft("checkout-wizard"), { token: t, body: { route: "/checkouts/new", payload: { step: 2 } } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ payload: { step: 2 }, version: 2, createdAt: first.body.createdAt });

    // The route is part of the key: the same workflowKey on another route is another draft.
    const elsewhere = await env.call("PUT", draft("checkout-wizard"), { token: t, body: { route: "/reservations/new", payload: null } });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.payload).toBeNull();

    const loaded = await env.call("GET", draft("checkout-wizard", "/checkouts/new"), { token: t });
    expect(loaded.status).toBe(200);
    expect(loaded.body).toEqual(second.body);
    expectProblem(await env.call("GET", draft("checkout-wizard", "/unknown"), { token: t }), 404, "not_found");
    expectFieldError(await env.call("GET", draft("checkout-wizard"), { token: t }), "/query/route");

    expect((await env.call("DELETE", draft("checkout-wizard", "/checkouts/new"), { token: t })).status).toBe(204);
    expectProblem(await env.call("GET", draft("checkout-wizard", "/checkouts/new"), { token: t }), 404, "not_found");
    expectProblem(await env.call("DELETE", draft("checkout-wizard", "/checkouts/new"), { token: t }), 404, "not_found");
    expect((await env.call("GET", draft("checkout-wizard", "/reservations/new"), { token: t })).status).toBe(200);

    expect(await otherTableCounts()).toEqual(before);
  });

  test("payload over 64 KiB, expiry beyond 30 days or in the past are 400", async () => {
    const t = await tok("mia");
    const big = { blob: "x".repeat(64 * 1024) };
    expectFieldError(await env.call("PUT", draft("big"), { token: t, body: { route: "/r", payload: big } }), "/body/payload");
    const justFits = { b: "x".repeat(64 * 1024 - 10) }; // {"b":"…"} adds 8 bytes
    expect((await env.call("PUT", draft("fits"), { token: t, body: { route: "/r", payload: justFits } })).status).toBe(201);

    const day = 86_400_000;
    const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
    expectFieldError(await env.call("PUT", draft("late"), { token: t, body: { route: "/r", payload: 1, expiresAt: at(30 * day + 1000) } }), "/body/expiresAt");
    expectFieldError(await env.call("PUT", draft("past"), { token: t, body: { route: "/r", payload: 1, expiresAt: at(-1000) } }), "/body/expiresAt");
    expectFieldError(await env.call("PUT", draft("bad-ts"), { token: t, body: { route: "/r", payload: 1, expiresAt: "tomorrow" } }), "/body/expiresAt");
    // Any offset is accepted and returned in UTC.
    const offset = await env.call("PUT", draft("offset"), { token: t, body: { route: "/r", payload: 1, expiresAt: "2026-04-02T12:00:00+02:00" } });
    expect(offset.status).toBe(201);
    expect(offset.body.expiresAt).toBe("2026-04-02T10:00:00.000Z");
    expectFieldError(await env.call("PUT", draft("bad key!"), { token: t, body: { route: "/r", payload: 1 } }), "/params/workflowKey");
    expectFieldError(await env.call("PUT", draft("no-route"), { token: t, body: { payload: 1 } }), "/body/route");
  });

  test("an expired draft is gone, and saving again starts at version 1", async () => {
    const t = await tok("mia");
    const put = await env.call("PUT", draft("short"), { token: t, body: { route: "/r", payload: { a: 1 }, expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() } });
    expect(put.status).toBe(201);
    expect((await env.call("GET", draft("short", "/r"), { token: t })).status).toBe(200);
    clock.advance(61_000);
    const t2 = await tok("mia");
    expectProblem(await env.call("GET", draft("short", "/r"), { token: t2 }), 404, "not_found");
    expectProblem(await env.call("DELETE", draft("short", "/r"), { token: t2 }), 404, "not_found");
    const again = await env.call("PUT", draft("short"), { token: t2, body: { route: "/r", payload: { a: 2 } } });
    expect(again.status).toBe(201);
    expect(again.body.version).toBe(1);
  });

  test("another user cannot load or delete my draft", async () => {
    const mine = await env.call("PUT", draft("secret"), { token: await tok("mia"), body: { route: "/r", payload: { pin: 1 } } });
    expect(mine.status).toBe(201);
    const max = await tok("max");
    expectProblem(await env.call("GET", draft("secret", "/r"), { token: max }), 404, "not_found");
    expectProblem(await env.call("DELETE", draft("secret", "/r"), { token: max }), 404, "not_found");
    // Their own save under the same key is a separate draft.
    const theirs = await env.call("PUT", draft("secret"), { token: max, body: { route: "/r", payload: { pin: 2 } } });
    expect(theirs.status).toBe(201);
    expect((await env.call("GET", draft("secret", "/r"), { token: await tok("mia") })).body.payload).toEqual({ pin: 1 });
  });
});
