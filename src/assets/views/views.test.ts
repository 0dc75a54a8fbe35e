// Saved views and drafts, told as a user's story through the HTTP API.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";
import { SURFACE_FILTERS, SURFACE_LIST_QUERIES, SURFACES } from "./views.schemas.ts";

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
    for (const name of ["  my   view ", "MY VIEW", "Ｍｙ Ｖｉｅｗ"]) {
      expectProblem(await env.call("POST", VIEWS, { token: t, body: { name, surface: "checkouts", query: {} } }), 409, "duplicate", name);
    }
    // Control characters are refused outright, a NUL above all (it would cut the stored name short).
    for (const name of ["My\tView", "My View\u0000", "My\u0000 View x", "My\u007fView"]) {
      expectFieldError(await env.call("POST", VIEWS, { token: t, body: { name, surface: "checkouts", query: {} } }), "/body/name", JSON.stringify(name));
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

describe("reading one saved view", () => {
  test("the Location of a create is followable and answers the created view", async () => {
    const t = await tok("mia");
    const created = await env.call("POST", VIEWS, { token: t, body: { name: "Followable", surface: "checkouts", query: { state: "checked_out", overdue: true } } });
    expect(created.status).toBe(201);
    const followed = await env.call("GET", created.headers.get("location")!, { token: t });
    expect(followed.status).toBe(200);
    expect(followed.body).toEqual(created.body);

    clock.advance(1000);
    const renamed = await env.call("PATCH", view(created.body.id), { token: t, body: { expectedVersion: 1, name: "Followed" } });
    expect((await env.call("GET", view(created.body.id), { token: t })).body).toEqual(renamed.body);
  });

  test("another user's view and an unknown id are 404; a malformed id is 400", async () => {
    const mine = await env.call("POST", VIEWS, { token: await tok("mia"), body: { name: "Only mine", surface: "owned", query: {} } });
    expect(mine.status).toBe(201);
    expectProblem(await env.call("GET", view(mine.body.id), { token: await tok("max") }), 404, "not_found");
    expectProblem(await env.call("GET", view(Bun.randomUUIDv7()), { token: await tok("mia") }), 404, "not_found");
    expectFieldError(await env.call("GET", view("not-a-uuid"), { token: await tok("mia") }), "/params/id");
  });
});

describe("saved-view query values", () => {
  test("each existing list's filter keys are exactly its query schema's, so no key is unreachable", () => {
    for (const surface of SURFACES) {
      const schema = SURFACE_LIST_QUERIES[surface] as unknown as { shape: Record<string, unknown> } | undefined;
      if (!schema) continue;
      const keys = Object.keys(schema.shape).filter((k) => k !== "limit" && k !== "cursor");
      expect(keys.sort(), surface).toEqual([...SURFACE_FILTERS[surface]].sort());
    }
    expect(Object.keys(SURFACE_LIST_QUERIES).sort()).toEqual(["alerts", "audits", "checkouts", "hub-tasks", "loaned", "movements", "owned", "shipments", "work-orders"]);
  });

  test("bad values are 400 at /body/query/<key> by the list's own query schema", async () => {
    const t = await tok("mia");
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ["owned", { lifecycle: "bogus" }, "lifecycle"],
      ["owned", { condition: ["good", "bogus"] }, "condition"],
      ["owned", { categoryId: "not-a-uuid" }, "categoryId"],
      ["owned", { q: "x".repeat(201) }, "q"],
      ["owned", { availability: true }, "availability"],
      ["loaned", { qualityStatus: "bogus" }, "qualityStatus"],
      ["loaned", { locationId: ["01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f", "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5e"] }, "locationId"],
      ["checkouts", { state: "lost" }, "state"],
      ["checkouts", { holderKind: ["user", "robot"] }, "holderKind"],
      ["checkouts", { overdue: "yes" }, "overdue"],
      ["checkouts", { holderId: "   " }, "holderId"],
      ["movements", { kind: "teleported" }, "kind"],
      ["movements", { from: "yesterday" }, "from"],
      ["movements", { to: "2026-02-30T00:00:00Z" }, "to"],
      ["movements", { itemId: "nope" }, "itemId"],
      ["audits", { status: "open" }, "status"],
      ["audits", { locationId: "not-a-uuid" }, "locationId"],
      ["work-orders", { status: ["open", "done"] }, "status"],
      ["work-orders", { itemId: "whatever" }, "itemId"],
      ["hub-tasks", { taskType: "bogus" }, "taskType"],
      ["hub-tasks", { status: ["open", "done"] }, "status"],
      ["shipments", { status: "lost" }, "status"],
      ["alerts", { kind: "bogus" }, "kind"],
      ["alerts", { status: ["open", "closed"] }, "status"],
    ];
    for (const [i, [surface, query, key]] of bad.entries()) {
      const label = `${surface} ${JSON.stringify(query)}`;
      const res = await env.call("POST", VIEWS, { token: t, body: { name: `Bad value ${i}`, surface, query } });
      expectFieldError(res, `/body/query/${key}`, label);
      expect(res.body.errors.map((e: { path: string }) => e.path), label).toEqual([`/body/query/${key}`]);
    }
    // PATCH with a new query gets the same check, and the view is left as it was.
    const v = await env.call("POST", VIEWS, { token: t, body: { name: "Patch values", surface: "owned", query: { lifecycle: "active" } } });
    expectFieldError(await env.call("PATCH", view(v.body.id), { token: t, body: { expectedVersion: 1, query: { lifecycle: "bogus" } } }), "/body/query/lifecycle");
    expectFieldError(await env.call("PATCH", view(v.body.id), { token: t, body: { expectedVersion: 1, query: { overdue: true } } }), "/body/query/overdue");
    expect((await env.call("GET", view(v.body.id), { token: t })).body).toMatchObject({ version: 1, query: { lifecycle: "active" } });
  });

  test("valid comma lists, arrays, booleans and instants are accepted and stored as given", async () => {
    const t = await tok("mia");
    const item = "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f";
    const good: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ["owned", { lifecycle: "active,retired", condition: ["good", "fair"], q: "  drill  ", limit: 10 }, { lifecycle: "active,retired", condition: ["good", "fair"], q: "drill", limit: 10 }],
      ["loaned", { availability: ["available"], locationId: item, q: "" }, { availability: ["available"], locationId: item, q: "" }],
      ["checkouts", { state: ["reserved", "checked_out"], overdue: true, holderKind: "user", holderId: "olivia" }, { state: ["reserved", "checked_out"], overdue: true, holderKind: "user", holderId: "olivia" }],
      ["checkouts", { overdue: false, itemId: item }, { overdue: false, itemId: item }],
      ["alerts", { kind: "checkout_overdue,shipment_delayed", status: ["open", "acknowledged"] }, { kind: "checkout_overdue,shipment_delayed", status: ["open", "acknowledged"] }],
      ["audits", { status: ["planned", "counting"], q: " east ", locationId: item }, { status: ["planned", "counting"], q: "east", locationId: item }],
      ["work-orders", { status: "open,paused", itemId: item, q: "lamp" }, { status: "open,paused", itemId: item, q: "lamp" }],
      ["movements", { kind: "registered", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00+01:00", itemId: item }, { kind: "registered", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00+01:00", itemId: item }],
    ];
    for (const [i, [surface, query, stored]] of good.entries()) {
      const label = `${surface} ${JSON.stringify(query)}`;
      const res = await env.call("POST", VIEWS, { token: t, body: { name: `Good values ${i}`, surface, query } });
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.query, label).toEqual(stored);
    }
    const patched = await env.call("POST", VIEWS, { token: t, body: { name: "Patch good", surface: "checkouts", query: {} } });
    const ok = await env.call("PATCH", view(patched.body.id), { token: t, body: { expectedVersion: 1, query: { overdue: false, state: "returned,cancelled" } } });
    expect(ok.status).toBe(200);
    expect(ok.body.query).toEqual({ overdue: false, state: "returned,cancelled" });
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
    expect(first.body).toMatchObject({ workflowKey: "checkout-wizard", route: "/checkouts/new", payload: { step: 1, itemIds: ["a"] }, version: 1, createdBy: "mia" });
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
