// A list whose filters are bound (FilterSet.bind/param) keeps its page and count
// statements per route and shape: built and prepared on the first request of a shape,
// then run with each request's values. The story: an operator pages through the owned
// and loaned registers with filters of one shape and different values, the totals follow
// every change, and no value of one request is ever frozen into a kept statement.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { count, eq, inArray, type SQL } from "drizzle-orm";
import { createTestEnv } from "../harness.ts";
import { checkKeptLists, FilterSet, keptLists, paginate, type PageRequest } from "../../src/platform/paging/paging.ts";
import { items } from "../../src/assets/kernel/kernel.tables.ts";
import { toItemDto, type ItemRow } from "../../src/assets/kernel/index.ts";
import type { Querier } from "../../src/platform/db/transactions.ts";
import type { RequestCtx } from "../../src/platform/http/context.ts";
import { resolveMember } from "../../src/platform/auth/membership.ts";

const env = await createTestEnv();
afterAll(() => env.close());
const P = "kept-co";
let token: string;
let site: string;
let lessor: string;
const names = { new: [] as string[], good: [] as string[], external: [] as string[] };

async function register(name: string, ownership: "owned" | "external", condition: "new" | "good"): Promise<void> {
  const res = await env.call("POST", `/api/assets/assets?partnerId=${P}`, {
    token,
    body: { name, ownership, condition, locationId: site, ...(ownership === "external" ? { ownerPartyId: lessor } : {}) },
  });
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
}

beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "kim", "admin");
  token = await env.token("kim");
  const loc = await env.call("POST", `/api/assets/locations?partnerId=${P}`, { token, body: { name: "Depot", kind: "site" } });
  site = loc.body.id;
  lessor = (await env.call("POST", `/api/assets/parties?partnerId=${P}`, { token, body: { name: "Lift Rentals", kind: "organisation" } })).body.id;
  for (let i = 0; i < 7; i++) await register(`New drill ${i}`, "owned", "new"), names.new.push(`New drill ${i}`);
  for (let i = 0; i < 4; i++) await register(`Good saw ${i}`, "owned", "good"), names.good.push(`Good saw ${i}`);
  for (let i = 0; i < 3; i++) await register(`Rented lift ${i}`, "external", "new"), names.external.push(`Rented lift ${i}`);
});

const list = async (path: string) => {
  const res = await env.call("GET", `/api/assets${path}${path.includes("?") ? "&" : "?"}partnerId=${P}`, { token });
  expect(res.status).toBe(200);
  return res.body as { items: Array<{ name: string; condition: string; ownership: string }>; total: number; nextCursor: string | null };
};

/** Every page of a list, following nextCursor. */
async function all(path: string): Promise<{ names: string[]; totals: number[] }> {
  const out: string[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(`${path}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    out.push(...page.items.map((i) => i.name));
    totals.push(page.total);
    cursor = page.nextCursor;
  } while (cursor);
  return { names: out, totals };
}

describe("one shape, many values", () => {
  test("condition=new and condition=good each answer their own items and totals, page after page", async () => {
    const fresh = await all("/owned?condition=new");
    const good = await all("/owned?condition=good");
    expect(fresh.names.toSorted()).toEqual(names.new.toSorted());
    expect(fresh.totals).toEqual([7, 7, 7]);
    expect(good.names.toSorted()).toEqual(names.good.toSorted());
    expect(good.totals).toEqual([4, 4]);
    // The same again: kept statements, the same answers.
    expect((await all("/owned?condition=good")).names).toEqual(good.names);
    expect((await all("/owned?condition=new")).names).toEqual(fresh.names);
  });

  test("the loaned register's ownership is a value, not frozen by the owned register's statements", async () => {
    await list("/owned?condition=new");
    const loaned = await list("/loaned?condition=new");
    expect(loaned.items.map((i) => i.name).toSorted()).toEqual(names.external.toSorted());
    expect(loaned.items.every((i) => i.ownership === "external")).toBe(true);
    expect(loaned.total).toBe(3);
  });

  test("a new item moves the memoised total and shows on the first page", async () => {
    expect((await list("/owned?condition=good")).total).toBe(4);
    await register("Good saw 4", "owned", "good");
    const after = await list("/owned?condition=good");
    expect(after.total).toBe(5);
    expect(after.items[0]!.name).toBe("Good saw 4");
    expect((await list("/owned?condition=new")).total).toBe(7);
  });

  test("two values of a list filter are another shape, answered exactly", async () => {
    const both = await list("/owned?condition=new,good&limit=50");
    expect(both.total).toBe(12);
    expect(both.items.map((i) => i.name).toSorted()).toEqual([...names.new, ...names.good, "Good saw 4"].toSorted());
  });
});

describe("paginate keeps statements only when nothing of a request is in them", () => {
  async function memberCtx(route: string): Promise<RequestCtx & { release(): void }> {
    const now = env.deps.clock.now();
    const m = await resolveMember(env.deps, P, "kim", now);
    const s = Math.floor(now.getTime() / 1000);
    return {
      deps: env.deps,
      requestId: "kept-test",
      now,
      nowIso: now.toISOString(),
      claims: { sub: "kim", sid: "s", iat: s, exp: s + 60, aal: "aal1", amr: ["pwd"], authTime: s },
      actorId: "kim",
      partnerId: P,
      tenant: m.tenant,
      role: m.role,
      membershipId: m.membershipId,
      capabilities: m.capabilities,
      route,
      routeParams: {},
      release: () => env.deps.tenancy.release(m.tenant),
    };
  }

  /** A request over items: the condition bound, the name (when given) written into the SQL as a value. */
  function request(condition: "new" | "good", builds: { n: number }, name?: string): PageRequest<ItemRow> {
    const f = new FilterSet().bind("condition", condition, (p) => eq(items.condition, p));
    const leading: SQL | undefined = name === undefined ? undefined : eq(items.name, name);
    return {
      filters: f.applied,
      bound: f.bound,
      limit: 50,
      orderTs: items.updatedAt,
      orderId: items.id,
      where: () => f.where(leading),
      page: (q: Querier, where, orderBy, limit) => {
        builds.n++;
        return q.select().from(items).where(where).orderBy(...orderBy).limit(limit);
      },
      count: (q: Querier, where) => q.select({ n: count() }).from(items).where(where),
      position: (r) => ({ t: r.updatedAt, i: r.id }),
    };
  }

  test.skipIf(env.driver !== "bun:sqlite")("bound filters: the page query is built for the first request of a shape only", async () => {
    const ctx = await memberCtx("GET /kept-probe");
    // Tests otherwise build every kept list again to compare (checkKeptLists): count the service's own builds.
    checkKeptLists(false);
    try {
      const builds = { n: 0 };
      const fresh = await paginate(ctx, request("new", builds), toItemDto);
      const good = await paginate(ctx, request("good", builds), toItemDto);
      const again = await paginate(ctx, request("new", builds), toItemDto);
      // Once on placeholders (kept), once with the values to check it makes the same SQL.
      expect(builds.n).toBe(2);
      // The probe lists every ownership.
      expect(fresh.items.map((i) => i.name).toSorted()).toEqual([...names.new, ...names.external].toSorted());
      expect(good.total).toBe(5);
      expect(good.items.every((i) => i.condition === "good")).toBe(true);
      expect(again.items).toEqual(fresh.items);
    } finally {
      checkKeptLists(true);
      ctx.release();
    }
  });

  test("a value written into the SQL is never kept: each request builds its own and gets its own rows", async () => {
    const ctx = await memberCtx("GET /kept-probe-scoped");
    try {
      const builds = { n: 0 };
      const one = await paginate(ctx, request("new", builds, "New drill 1"), toItemDto);
      const two = await paginate(ctx, request("new", builds, "New drill 2"), toItemDto);
      expect(one.items.map((i) => i.name)).toEqual(["New drill 1"]);
      expect(two.items.map((i) => i.name)).toEqual(["New drill 2"]);
      expect([one.total, two.total]).toEqual([1, 1]);
      // The first request of the shape builds three times (on placeholders, to compare, refused; then its own), every later one once.
      expect(builds.n).toBe(env.driver === "bun:sqlite" ? 4 : 2);
    } finally {
      ctx.release();
    }
  });

  test.skipIf(env.driver !== "bun:sqlite")("tests catch a route whose SQL depends on more than its shape", async () => {
    const ctx = await memberCtx("GET /kept-probe-mixed");
    try {
      const builds = { n: 0 };
      expect((await paginate(ctx, request("new", builds), toItemDto)).total).toBe(10);
      // Sometimes scoped by a value the shape does not name: the kept statement would drop the scope.
      expect(paginate(ctx, request("new", builds, "New drill 1"), toItemDto)).rejects.toThrow(
        "the statements kept for GET /kept-probe-mixed (condition;) differ from this request's: its SQL depends on more than its bound shape",
      );
    } finally {
      ctx.release();
    }
  });

  test("add() puts its value into the SQL: such a filter set has no bound shape", () => {
    const f = new FilterSet().bind("condition", "new", (p) => eq(items.condition, p)).add("name", "x", (v) => eq(items.name, v));
    expect(f.bound).toBeUndefined();
    const bound = new FilterSet().scope("ownership", "owned", (v) => eq(items.ownership, v)).bind("condition", ["new", "good"] as const, (v) => inArray(items.condition, v)).bound;
    expect([bound?.shape, bound?.values]).toEqual(["ownership;condition[2];", { ownership: "owned", "condition.0": "new", "condition.1": "good" }]);
  });
});

describe("routes whose lists keep their statements", () => {
  const get = async (family: "assets" | "planning", path: string, user: string) => {
    const res = await env.call("GET", `/api/${family}${path}${path.includes("?") ? "&" : "?"}partnerId=${P}`, { token: await env.token(user) });
    expect(res.status).toBe(200);
    return res.body as { items: Array<{ name: string }>; total: number; filters: Record<string, unknown> };
  };
  const names = (page: { items: Array<{ name: string }> }) => page.items.map((i) => i.name).toSorted();

  beforeAll(async () => {
    await env.member(P, "mia", "operator");
    await env.member(P, "max", "viewer");
    const view = async (user: string, name: string, surface: string) =>
      env.call("POST", `/api/assets/saved-views?partnerId=${P}`, { token: await env.token(user), body: { name, surface, query: {} } });
    for (const [user, name, surface] of [["mia", "Mia owned", "owned"], ["mia", "Mia loaned", "loaned"], ["mia", "Mia audits", "audits"], ["max", "Max owned", "owned"]] as const) {
      expect((await view(user, name, surface)).status).toBe(201);
    }
    const project = (name: string, members: Array<{ userId: string; role: string }>) =>
      env.call("POST", `/api/planning/projects?partnerId=${P}`, {
        token,
        body: { name, timeZone: "Europe/Berlin", startsOn: "2026-08-14", endsOn: "2026-08-16", members },
      });
    expect((await project("Harbour Festival", [{ userId: "mia", role: "member" }])).status).toBe(201);
    expect((await project("Winter Market", [{ userId: "max", role: "viewer" }])).status).toBe(201);
  });

  test("saved views: each caller's own, filtered by surface, the scope never echoed", async () => {
    // Twice each: the second request of a shape runs the kept statements with its own user.
    for (let round = 0; round < 2; round++) {
      const mine = await get("assets", "/saved-views?surface=owned,loaned", "mia");
      expect([names(mine), mine.total, mine.filters]).toEqual([["Mia loaned", "Mia owned"], 2, { surface: ["owned", "loaned"] }]);
      const his = await get("assets", "/saved-views?surface=owned,loaned", "max");
      expect([names(his), his.total]).toEqual([["Max owned"], 1]);
      const all = await get("assets", "/saved-views", "mia");
      expect([all.total, all.filters]).toEqual([3, {}]);
      expect((await get("assets", "/saved-views", "kim")).total).toBe(0);
    }
  });

  test("projects: a member's own, every project for planning_admin, the scope never echoed", async () => {
    for (let round = 0; round < 2; round++) {
      expect(names(await get("planning", "/projects", "mia"))).toEqual(["Harbour Festival"]);
      const max = await get("planning", "/projects?state=concept", "max");
      expect([names(max), max.total, max.filters]).toEqual([["Winter Market"], 1, { state: ["concept"] }]);
      expect((await get("planning", "/projects?state=active", "max")).total).toBe(0);
      const admin = await get("planning", "/projects", "kim");
      expect([names(admin), admin.filters]).toEqual([["Harbour Festival", "Winter Market"], {}]);
    }
  });

  test.skipIf(env.driver !== "bun:sqlite")("the registers, saved views and projects are served by kept statements, scoped by a value", async () => {
    await list("/owned?condition=new");
    await get("assets", "/saved-views?surface=owned", "mia");
    await get("assets", "/saved-views", "mia");
    await get("planning", "/projects?state=concept", "mia");
    await get("planning", "/projects?state=concept,active", "kim");
    const expected = [
      "GET /owned (ownership;condition[1];)",
      "GET /saved-views (userId;surface[1];)",
      "GET /saved-views (userId;)",
      "GET /projects (memberOf;state[1];)",
      "GET /projects (state[2];)",
    ];
    expect(expected.filter((list) => !keptLists().has(list))).toEqual([]);
  });
});
