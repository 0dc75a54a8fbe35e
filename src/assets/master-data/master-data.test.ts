// Master data told as an administrator's story: a location tree, counterparties and
// their agreements, the catalogue, and the settings registers over all of them.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";
import type { Querier } from "../../platform/http/context.ts";
import { locationPath, requireLocation, requireParty } from "./master-data.service.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

const P = "md-co";
const url = (path: string, qs = "") => `/api/assets${path}?partnerId=${P}${qs}`;
let admin = "";
let viewer = "";
let operator = "";

beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "ada", "admin");
  await env.member(P, "vic", "viewer");
  await env.member(P, "otto", "operator");
  [admin, viewer, operator] = await Promise.all([env.token("ada"), env.token("vic"), env.token("otto")]);
});

/** POST as the admin, one clock tick later, so updatedAt orders the records. */
async function create(path: string, body: unknown) {
  clock.advance(1000);
  const res = await env.call("POST", url(path), { token: admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function patch(path: string, body: unknown, token = admin) {
  clock.advance(1000);
  return env.call("PATCH", url(path), { token, body });
}

/** Runs a read against the partner's database, outside any request. */
async function withDb<T>(fn: (q: Querier) => PromiseLike<T>): Promise<T> {
  const handle = await env.deps.tenancy.acquire(P);
  try {
    return await fn(handle.db.read);
  } finally {
    env.deps.tenancy.release(handle);
  }
}

describe("locations", () => {
  const ids: Record<string, string> = {};

  test("a site contains a building contains a room contains a bin; the bin reads with its path", async () => {
    const site = await env.call("POST", url("/locations"), { token: admin, body: { name: "Head office", kind: "site", code: "HQ" } });
    expect(site.status).toBe(201);
    expect(site.body).toMatchObject({ name: "Head office", kind: "site", code: "HQ", parentId: null, status: "active", version: 1, createdBy: "ada" });
    expect(site.body.createdAt).toBe(clock.now().toISOString());
    expect(site.headers.get("location")).toBe(`/api/assets/locations/${site.body.id}?partnerId=${P}`);
    ids.site = site.body.id;
    ids.building = (await create("/locations", { name: "North wing", kind: "building", parentId: ids.site })).id;
    ids.room = (await create("/locations", { name: "Store room 1", kind: "room", parentId: ids.building, code: "NW-R1" })).id;
    ids.bin = (await create("/locations", { name: "Bin A-3", kind: "bin", parentId: ids.room })).id;

    const bin = await env.call("GET", url(`/locations/${ids.bin}`), { token: viewer });
    expect(bin.status).toBe(200);
    expect(bin.body).toMatchObject({ id: ids.bin, name: "Bin A-3", kind: "bin", parentId: ids.room, version: 1 });
    expect(bin.body.path).toEqual([
      { id: ids.site, name: "Head office", kind: "site" },
      { id: ids.building, name: "North wing", kind: "building" },
      { id: ids.room, name: "Store room 1", kind: "room" },
    ]);
    const root = await env.call("GET", url(`/locations/${ids.site}`), { token: viewer });
    expect(root.body.path).toEqual([]);

    // The helper other modules use includes the location itself, last.
    const chain = await withDb((q) => locationPath(q, ids.bin!));
    expect(chain.map((c) => c.id)).toEqual([ids.site!, ids.building!, ids.room!, ids.bin!]);
    expect(await withDb((q) => locationPath(q, Bun.randomUUIDv7()))).toEqual([]);
  });

  test("a PATCH needs the current version, bumps it, and a no-op changes nothing", async () => {
    const stale = await patch(`/locations/${ids.bin}`, { expectedVersion: 2, name: "Bin A-4" });
    expectProblem(stale, 409, "version_conflict");
    expectFieldError(await patch(`/locations/${ids.bin}`, { name: "Bin A-4" }), "/body/expectedVersion");

    const renamed = await patch(`/locations/${ids.bin}`, { expectedVersion: 1, name: "Bin A-4", code: "A-4" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Bin A-4", code: "A-4", version: 2, parentId: ids.room });
    expect(renamed.body.updatedAt).toBe(clock.now().toISOString());

    const same = await patch(`/locations/${ids.bin}`, { expectedVersion: 2, name: "Bin A-4" });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(renamed.body);

    const cleared = await patch(`/locations/${ids.bin}`, { expectedVersion: 2, code: null });
    expect(cleared.body).toMatchObject({ code: null, version: 3 });
    expectProblem(await patch(`/locations/${Bun.randomUUIDv7()}`, { expectedVersion: 1, name: "x" }), 404, "not_found");
    expectProblem(await env.call("GET", url(`/locations/${Bun.randomUUIDv7()}`), { token: viewer }), 404, "not_found");
  });

  test("a parent inside the location's own subtree is 409 cycle_detected; a valid move changes the path", async () => {
    expectProblem(await patch(`/locations/${ids.site}`, { expectedVersion: 1, parentId: ids.bin }), 409, "cycle_detected");
    expectProblem(await patch(`/locations/${ids.building}`, { expectedVersion: 1, parentId: ids.building }), 409, "cycle_detected");
    expectProblem(await patch(`/locations/${ids.building}`, { expectedVersion: 1, parentId: ids.room }), 409, "cycle_detected");

    const moved = await patch(`/locations/${ids.room}`, { expectedVersion: 1, parentId: ids.site });
    expect(moved.status).toBe(200);
    const room = await env.call("GET", url(`/locations/${ids.room}`), { token: viewer });
    expect(room.body.path.map((p: { id: string }) => p.id)).toEqual([ids.site]);
    const back = await patch(`/locations/${ids.room}`, { expectedVersion: 2, parentId: ids.building });
    expect(back.body).toMatchObject({ parentId: ids.building, version: 3 });
  });

  test("a code in use is 409 duplicate; an unknown parent is 400 at /body/parentId", async () => {
    expectProblem(await env.call("POST", url("/locations"), { token: admin, body: { name: "Second HQ", kind: "site", code: "HQ" } }), 409, "duplicate");
    expectProblem(await patch(`/locations/${ids.building}`, { expectedVersion: 1, code: "NW-R1" }), 409, "duplicate");

    const ghost = Bun.randomUUIDv7();
    const res = await env.call("POST", url("/locations"), { token: admin, body: { name: "Nowhere", kind: "room", parentId: ghost } });
    expectFieldError(res, "/body/parentId");
    expect(res.body.errors[0].message).toBe("unknown location");
    expectFieldError(await patch(`/locations/${ids.bin}`, { expectedVersion: 3, parentId: ghost }), "/body/parentId");
    // Bodies are strict: a wrong kind, an actor field or an unknown property is 400 with its path.
    expectFieldError(await env.call("POST", url("/locations"), { token: admin, body: { name: "X", kind: "planet" } }), "/body/kind");
    expectFieldError(await env.call("POST", url("/locations"), { token: admin, body: { name: "X", kind: "site", createdBy: "eve" } }), "/body/createdBy");
    expectFieldError(await env.call("POST", url("/locations"), { token: admin, body: { name: "  ", kind: "site" } }), "/body/name");
  });

  test("archiving: not while it contains active locations or items; archived locations take no new references", async () => {
    expectProblem(await patch(`/locations/${ids.building}`, { expectedVersion: 1, status: "archived" }), 409, "state_conflict");

    const archived = await patch(`/locations/${ids.bin}`, { expectedVersion: 3, status: "archived" });
    expect(archived.body).toMatchObject({ status: "archived", version: 4 });
    const under = await env.call("POST", url("/locations"), { token: admin, body: { name: "Shelf", kind: "other", parentId: ids.bin } });
    expectFieldError(under, "/body/parentId");
    expect(under.body.errors[0].message).toBe("location is archived");
    await expect(withDb((q) => requireLocation(q, ids.bin!, "/body/locationId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/locationId", message: "location is archived" }],
    });
    expect((await withDb((q) => requireLocation(q, ids.room!, "/body/locationId"))).id).toBe(ids.room!);

    // An archived child no longer blocks archiving its parent; unarchiving under an archived parent is refused.
    const room = await patch(`/locations/${ids.room}`, { expectedVersion: 3, status: "archived" });
    expect(room.body.status).toBe("archived");
    expectProblem(await patch(`/locations/${ids.bin}`, { expectedVersion: 4, status: "active" }), 409, "state_conflict");
    expect((await patch(`/locations/${ids.room}`, { expectedVersion: 4, status: "active" })).body.status).toBe("active");
    expect((await patch(`/locations/${ids.bin}`, { expectedVersion: 4, status: "active" })).body).toMatchObject({ status: "active", version: 5 });
  });

  test("the list filters by text, kind, status and parent with exact totals", async () => {
    ids.van = (await create("/locations", { name: "Service van", kind: "vehicle", code: "VAN-1" })).id;
    await patch(`/locations/${ids.van}`, { expectedVersion: 1, status: "archived" });
    const list = (qs: string) => env.call("GET", url("/locations", qs), { token: viewer });

    const all = await list("");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(5);
    expect(all.body.items.map((l: { id: string }) => l.id)).toEqual([ids.van, ids.bin, ids.room, ids.building, ids.site]);
    expect(all.body.filters).toEqual({});

    const q = await list("&q=%20stor%20");
    expect(q.body).toMatchObject({ total: 1, filters: { q: "stor" } });
    expect(q.body.items[0].id).toBe(ids.room);
    expect((await list("&q=van-1")).body.items.map((l: { id: string }) => l.id)).toEqual([ids.van]);
    expect((await list("&q=---")).body).toMatchObject({ total: 5, filters: {} });

    expect((await list("&kind=bin,vehicle,bin")).body).toMatchObject({ total: 2, filters: { kind: ["bin", "vehicle"] } });
    expect((await list("&status=archived")).body.items.map((l: { id: string }) => l.id)).toEqual([ids.van]);
    expect((await list(`&parentId=${ids.site}`)).body.items.map((l: { id: string }) => l.id)).toEqual([ids.building]);
    expectFieldError(await list("&kind=planet"), "/query/kind");
    expectFieldError(await list(`&q=${"x".repeat(201)}`), "/query/q");

    // A walk of two per page meets every location once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ id: string }>; nextCursor: string | null; total: number } } = await list(
        `&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.body.total).toBe(5);
      seen.push(...page.body.items.map((l) => l.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((l: { id: string }) => l.id));
  });

  test("a replayed create returns the first response and creates nothing more", async () => {
    const body = { name: "Dock", kind: "room", parentId: ids.building };
    const first = await env.call("POST", url("/locations"), { token: admin, body, idem: "dock-1" });
    const again = await env.call("POST", url("/locations"), { token: admin, body, idem: "dock-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const children = await env.call("GET", url("/locations", `&parentId=${ids.building}`), { token: viewer });
    expect(children.body.items.filter((l: { name: string }) => l.name === "Dock")).toHaveLength(1);
    expectProblem(await env.call("POST", url("/locations"), { token: admin, body, idem: false }), 400, "idempotency_key_required");
  });
});

describe("parties and agreements", () => {
  let acme = "";
  let pat = "";
  let lease = "";

  test("a party is created, read and renamed", async () => {
    const res = await env.call("POST", url("/parties"), { token: admin, body: { name: "Acme Leasing", kind: "organisation", externalRef: "CRM-42" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Acme Leasing", kind: "organisation", externalRef: "CRM-42", status: "active", version: 1 });
    expect(res.headers.get("location")).toBe(`/api/assets/parties/${res.body.id}?partnerId=${P}`);
    acme = res.body.id;
    pat = (await create("/parties", { name: "Pat Jones", kind: "person" })).id;

    expect((await env.call("GET", url(`/parties/${pat}`), { token: viewer })).body).toMatchObject({ name: "Pat Jones", externalRef: null });
    const renamed = await patch(`/parties/${pat}`, { expectedVersion: 1, name: "Pat Jones-Smith", externalRef: "HR-7" });
    expect(renamed.body).toMatchObject({ name: "Pat Jones-Smith", externalRef: "HR-7", version: 2 });
    expectProblem(await patch(`/parties/${pat}`, { expectedVersion: 1, name: "Pat" }), 409, "version_conflict");
    expectFieldError(await env.call("POST", url("/parties"), { token: admin, body: { name: "X", kind: "robot" } }), "/body/kind");

    const list = await env.call("GET", url("/parties", "&q=jones"), { token: viewer });
    expect(list.body).toMatchObject({ total: 1, filters: { q: "jones" } });
    expect((await env.call("GET", url("/parties", "&q=hr-7"), { token: viewer })).body.items[0].id).toBe(pat);
    expect((await env.call("GET", url("/parties", "&kind=organisation"), { token: viewer })).body.total).toBe(1);
  });

  test("agreements: endsOn before startsOn is 400, an unknown party is 400, terms default by kind", async () => {
    const bad = await env.call("POST", url("/agreements"), {
      token: admin,
      body: { kind: "lease", partyId: acme, startsOn: "2026-06-01", endsOn: "2026-05-31" },
    });
    expectFieldError(bad, "/body/endsOn");
    const ghost = await env.call("POST", url("/agreements"), { token: admin, body: { kind: "lease", partyId: Bun.randomUUIDv7(), startsOn: "2026-06-01" } });
    expectFieldError(ghost, "/body/partyId");
    expect(ghost.body.errors[0].message).toBe("unknown party");
    expectFieldError(await env.call("POST", url("/agreements"), { token: admin, body: { kind: "lease", partyId: acme, startsOn: "2026-02-30" } }), "/body/startsOn");

    const res = await env.call("POST", url("/agreements"), {
      token: admin,
      body: { kind: "lease", partyId: acme, startsOn: "2026-06-01", endsOn: "2029-05-31", reference: "LEASE-2026-001" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "lease", partyId: acme, startsOn: "2026-06-01", endsOn: "2029-05-31", terms: "external", version: 1 });
    expect(res.headers.get("location")).toBe(`/api/assets/agreements/${res.body.id}?partnerId=${P}`);
    lease = res.body.id;

    const warranty = await create("/agreements", { kind: "warranty", partyId: acme, startsOn: "2026-01-01", endsOn: "2026-01-01" });
    expect(warranty).toMatchObject({ terms: "owned", endsOn: "2026-01-01", reference: null });
    const loanIn = await create("/agreements", { kind: "loan", partyId: pat, startsOn: "2026-03-01", terms: "owned", reference: "Loan to Pat" });
    expect(loanIn).toMatchObject({ terms: "owned", endsOn: null });
  });

  test("an agreement PATCH keeps the dates in order and needs the current version", async () => {
    expectFieldError(await patch(`/agreements/${lease}`, { expectedVersion: 1, endsOn: "2026-01-01" }), "/body/endsOn");
    expectFieldError(await patch(`/agreements/${lease}`, { expectedVersion: 1, startsOn: "2030-01-01" }), "/body/startsOn");
    expectFieldError(await patch(`/agreements/${lease}`, { expectedVersion: 1, partyId: Bun.randomUUIDv7() }), "/body/partyId");
    expectProblem(await patch(`/agreements/${lease}`, { expectedVersion: 7, endsOn: null }), 409, "version_conflict");
    const open = await patch(`/agreements/${lease}`, { expectedVersion: 1, endsOn: null, terms: "owned" });
    expect(open.body).toMatchObject({ endsOn: null, terms: "owned", version: 2 });
    expect((await env.call("GET", url(`/agreements/${lease}`), { token: viewer })).body).toEqual(open.body);
  });

  test("agreements filter by kind, party and text (reference prefix or counterparty)", async () => {
    const list = (qs: string) => env.call("GET", url("/agreements", qs), { token: viewer });
    expect((await list("")).body.total).toBe(3);
    expect((await list("&kind=lease,warranty")).body.total).toBe(2);
    expect((await list(`&partyId=${pat}`)).body.items.map((a: { kind: string }) => a.kind)).toEqual(["loan"]);
    const ref = await list("&q=lease-2026");
    expect(ref.body.items.map((a: { id: string }) => a.id)).toEqual([lease]);
    expect((await list("&q=ACME")).body.total).toBe(2);
    expect((await list("&q=loan%20to")).body.total).toBe(1);
    expect((await list("&q=zzz")).body.total).toBe(0);
  });

  test("an archived party takes no new agreements", async () => {
    await patch(`/parties/${pat}`, { expectedVersion: 2, status: "archived" });
    const res = await env.call("POST", url("/agreements"), { token: admin, body: { kind: "rental", partyId: pat, startsOn: "2026-07-01" } });
    expectFieldError(res, "/body/partyId");
    expect(res.body.errors[0].message).toBe("party is archived");
    await expect(withDb((q) => requireParty(q, acme, "/body/ownerPartyId"))).resolves.toMatchObject({ id: acme });
  });
});

describe("catalogue", () => {
  let laptops = "";
  let tools = "";
  let model = "";

  test("categories and models; GET /catalog nests models under their category", async () => {
    const cat = await env.call("POST", url("/catalog/categories"), { token: admin, body: { name: "Laptops", code: "LAP" } });
    expect(cat.status).toBe(201);
    expect(cat.body).toMatchObject({ name: "Laptops", code: "LAP", status: "active", version: 1 });
    expect(cat.headers.get("location")).toBe(`/api/assets/catalog/categories/${cat.body.id}?partnerId=${P}`);
    laptops = cat.body.id;
    tools = (await create("/catalog/categories", { name: "power tools" })).id;
    expectProblem(await env.call("POST", url("/catalog/categories"), { token: admin, body: { name: "Notebooks", code: "LAP" } }), 409, "duplicate");

    const m = await env.call("POST", url("/catalog/models"), {
      token: admin,
      body: { name: "ThinkPad T14", categoryId: laptops, manufacturer: "Lenovo", modelNumber: "20W0" },
    });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ name: "ThinkPad T14", categoryId: laptops, manufacturer: "Lenovo", modelNumber: "20W0", version: 1 });
    expect(m.headers.get("location")).toBe(`/api/assets/catalog/models/${m.body.id}?partnerId=${P}`);
    model = m.body.id;
    await create("/catalog/models", { name: "EliteBook 840", categoryId: laptops, manufacturer: "HP" });
    await create("/catalog/models", { name: "Drill GSB 18V", categoryId: tools, manufacturer: "Bosch" });
    expectFieldError(await env.call("POST", url("/catalog/models"), { token: admin, body: { name: "X", categoryId: Bun.randomUUIDv7() } }), "/body/categoryId");

    const catalog = await env.call("GET", url("/catalog"), { token: viewer });
    expect(catalog.status).toBe(200);
    expect(Object.keys(catalog.body)).toEqual(["items"]);
    expect(catalog.body.items.map((c: { name: string; models: Array<{ name: string }> }) => [c.name, c.models.map((x) => x.name)])).toEqual([
      ["Laptops", ["EliteBook 840", "ThinkPad T14"]],
      ["power tools", ["Drill GSB 18V"]],
    ]);
    const one = await env.call("GET", url(`/catalog/categories/${laptops}`), { token: viewer });
    expect(one.body.models).toHaveLength(2);
    expect((await env.call("GET", url(`/catalog/models/${model}`), { token: viewer })).body).toEqual(m.body);
  });

  test("a category with active models cannot be archived; a model of an archived category cannot be unarchived", async () => {
    expectProblem(await patch(`/catalog/categories/${tools}`, { expectedVersion: 1, status: "archived" }), 409, "state_conflict");
    const drill = (await env.call("GET", url(`/catalog/categories/${tools}`), { token: viewer })).body.models[0];
    expect((await patch(`/catalog/models/${drill.id}`, { expectedVersion: 1, status: "archived" })).body.status).toBe("archived");
    expect((await patch(`/catalog/categories/${tools}`, { expectedVersion: 1, status: "archived", name: "Power tools" })).body).toMatchObject({
      status: "archived",
      name: "Power tools",
      version: 2,
    });
    expectProblem(await patch(`/catalog/models/${drill.id}`, { expectedVersion: 2, status: "active" }), 409, "state_conflict");
    expectFieldError(await patch(`/catalog/models/${model}`, { expectedVersion: 1, categoryId: tools }), "/body/categoryId");
    const moved = await patch(`/catalog/models/${model}`, { expectedVersion: 1, modelNumber: "20W1" });
    expect(moved.body).toMatchObject({ modelNumber: "20W1", version: 2 });
    expectProblem(await patch(`/catalog/models/${model}`, { expectedVersion: 1, name: "T15" }), 409, "version_conflict");

    const active = await env.call("GET", url("/catalog", "&status=active"), { token: viewer });
    expect(active.body.items.map((c: { name: string }) => c.name)).toEqual(["Laptops"]);
  });
});

describe("settings records", () => {
  const records = (qs: string) => env.call("GET", url("/settings/records", qs), { token: viewer });

  /** Walks every page of the query, two records at a time, checking the total on each page. */
  async function walk(qs: string): Promise<Array<{ id: string; updatedAt: string }>> {
    const first = await records(qs);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const out: Array<{ id: string; updatedAt: string }> = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { records: Array<{ id: string; updatedAt: string }>; nextCursor: string | null; total: number } } =
        await records(`${qs}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(first.body.total);
      expect(page.body.records.length).toBeLessThanOrEqual(2);
      out.push(...page.body.records);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(out).toHaveLength(first.body.total);
    expect(new Set(out.map((r) => r.id)).size).toBe(out.length);
    // Descending on (updatedAt, id).
    for (let i = 1; i < out.length; i++) {
      const [a, b] = [out[i - 1]!, out[i]!];
      expect(a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id)).toBe(true);
    }
    return out;
  }

  test("locations: uniform projection, q/status/kind filters and a cursor walk", async () => {
    const res = await records("&recordType=location");
    expect(Object.keys(res.body).sort()).toEqual(["asOf", "filters", "limit", "nextCursor", "records", "total"]);
    expect(res.body.filters).toEqual({ recordType: "location" });
    expect(res.body.total).toBe(6);
    const site = res.body.records.find((r: { code: string | null }) => r.code === "HQ");
    expect(Object.keys(site).sort()).toEqual(["code", "createdAt", "createdBy", "id", "kind", "name", "parentId", "recordType", "status", "updatedAt", "version"]);
    expect(site).toMatchObject({ recordType: "location", kind: "site", name: "Head office", status: "active", parentId: null, version: 1 });

    expect((await walk("&recordType=location")).length).toBe(6);
    expect((await records("&recordType=location&q=north")).body).toMatchObject({ total: 1, filters: { recordType: "location", q: "north" } });
    expect((await records("&recordType=location&status=archived")).body.total).toBe(1);
    expect((await records("&recordType=location&kind=room,bin")).body).toMatchObject({ total: 3, filters: { kind: ["room", "bin"] } });
    expect((await records("&recordType=location&kind=room&status=active&q=dock")).body.total).toBe(1);
  });

  test("parties and agreements", async () => {
    expect((await walk("&recordType=party")).length).toBe(2);
    expect((await records("&recordType=party&kind=person")).body.records[0]).toMatchObject({ name: "Pat Jones-Smith", code: "HR-7", status: "archived" });
    expect((await records("&recordType=party&status=active&q=acme")).body.total).toBe(1);
    expect((await records("&recordType=party&status=active&q=pat")).body.total).toBe(0);

    const agreements = await walk("&recordType=agreement");
    expect(agreements).toHaveLength(3);
    const all = (await records("&recordType=agreement")).body.records;
    const warranty = all.find((r: { kind: string }) => r.kind === "warranty");
    expect(warranty).toMatchObject({ recordType: "agreement", name: "Acme Leasing · warranty", code: null, status: "active" });
    expect(warranty.parentId).toBeString();
    expect((await records("&recordType=agreement&kind=lease,loan")).body.total).toBe(2);
    expect((await records("&recordType=agreement&q=lease-")).body.records.map((r: { name: string }) => r.name)).toEqual(["LEASE-2026-001"]);
    expect((await records("&recordType=agreement&q=pat&kind=loan")).body.total).toBe(1);
    expect((await records("&recordType=agreement&status=archived")).body.total).toBe(0);
  });

  test("the catalogue mixes categories and models in one order", async () => {
    const catalog = await walk("&recordType=catalog");
    expect(catalog).toHaveLength(5);
    const res = await records("&recordType=catalog");
    expect(res.body.records.map((r: { kind: string; name: string }) => `${r.kind}:${r.name}`).sort()).toEqual([
      "category:Laptops",
      "category:Power tools",
      "model:Drill GSB 18V",
      "model:EliteBook 840",
      "model:ThinkPad T14",
    ]);
    const models = await records("&recordType=catalog&kind=model");
    expect(models.body.total).toBe(3);
    expect(models.body.records.every((r: { parentId: string | null }) => typeof r.parentId === "string")).toBe(true);
    expect((await records("&recordType=catalog&kind=category&status=archived")).body.records.map((r: { name: string }) => r.name)).toEqual(["Power tools"]);
    expect((await records("&recordType=catalog&q=LENOVO")).body.records.map((r: { name: string }) => r.name)).toEqual(["ThinkPad T14"]);
    expect((await records("&recordType=catalog&q=book")).body.total).toBe(1);
    expect((await records("&recordType=catalog&q=lap")).body.total).toBe(1);
    expect((await records("&recordType=catalog&q=tool&status=active")).body.total).toBe(0);
  });

  test("bad queries are 400 with their path; a cursor is bound to its filters", async () => {
    expectFieldError(await records(""), "/query/recordType");
    expectFieldError(await records("&recordType=item"), "/query/recordType");
    expectFieldError(await records("&recordType=catalog&kind=site"), "/query/kind");
    expectFieldError(await records("&recordType=location&kind=model"), "/query/kind");
    expectFieldError(await records("&recordType=location&limit=201"), "/query/limit");
    const page = await records("&recordType=location&limit=1");
    const foreign = await records(`&recordType=party&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expectProblem(foreign, 400, "invalid_cursor");
  });

  test("the agreement text filter uses the reference index and the counterparty's FTS", async () => {
    const plan = await withDb((q) =>
      q.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT count(*) FROM agreements
        WHERE (lower(reference) >= lower('x') AND lower(reference) < lower('x') || char(1114111))
           OR party_id IN (SELECT id FROM parties WHERE rowid IN (SELECT rowid FROM parties_fts WHERE parties_fts MATCH '"x"*'))`),
    );
    const text = plan.map((p) => p.detail).join("\n");
    expect(text).toContain("agreements_reference_ci_idx");
    expect(text).toContain("agreements_party_idx");
  });
});

describe("capabilities", () => {
  test("a viewer reads master data but cannot write it; an operator cannot write it either", async () => {
    for (const [token, who] of [
      [viewer, "viewer"],
      [operator, "operator"],
    ] as const) {
      for (const [path, body] of [
        ["/locations", { name: "X", kind: "site" }],
        ["/parties", { name: "X", kind: "person" }],
        ["/catalog/categories", { name: "X" }],
      ] as const) {
        expectProblem(await env.call("POST", url(path), { token, body }), 403, "capability_denied", `${who} POST ${path}`);
      }
      const first = (await env.call("GET", url("/locations"), { token })).body.items[0];
      expectProblem(await env.call("PATCH", url(`/locations/${first.id}`), { token, body: { expectedVersion: first.version, name: "Y" } }), 403, "capability_denied");
    }
    for (const path of ["/locations", "/parties", "/agreements", "/catalog"]) {
      expect((await env.call("GET", url(path), { token: viewer })).status).toBe(200);
    }
    expect((await env.call("GET", url("/settings/records", "&recordType=party"), { token: operator })).status).toBe(200);
  });
});
