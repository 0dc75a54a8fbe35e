// The register reads tell one story: a partner with 1,000 owned and some loaned
// items pages through them exactly once, finds subsets by every filter with exact
// totals, reads exact overview counts, and searches by rank.
import { test, expect, describe, beforeAll, afterAll } from "bun:test";
import { desc, sql } from "drizzle-orm";
import { createTestEnv, MutableClock, type TestEnv } from "../../../test/harness.ts";
import { type Querier } from "../../platform/db/transactions.ts";
import type { TenantHandle } from "../../platform/tenancy/tenancy.ts";
import { AVAILABILITIES, CONDITIONS, LIFECYCLES, QUALITY_STATUSES, type ItemRow } from "../kernel/item.schemas.ts";
import { items } from "../kernel/kernel.tables.ts";
import { OUT_OF_USE } from "../kernel/lifecycle.ts";
import { identifiers } from "../identity/identity.tables.ts";
import { checkouts } from "../custody/custody.tables.ts";
import { locations } from "../locations/locations.tables.ts";
import { parties } from "../parties/parties.tables.ts";
import { catalogCategories } from "../catalogue/catalogue.tables.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { registerCount, registerFilters, registerPage, summaryQueries } from "./register.service.ts";
import type { RegisterListQuery } from "./register.schemas.ts";

const P = "acme";
const START = new Date("2026-03-01T08:00:00.000Z");
const clock = new MutableClock(new Date(START));
let env: TestEnv;
let viewer: string;
const id = () => Bun.randomUUIDv7();

// Master data: site1 ⊃ building1 ⊃ room1; site1 ⊃ bin1; site2.
const L = { site1: id(), building1: id(), room1: id(), bin1: id(), site2: id() };
const C = { tools: id(), it: id() };
const partyId = id();
const seeded: ItemRow[] = [];
const owned = () => seeded.filter((r) => r.ownership === "owned");
const IN_USE = AVAILABILITIES.filter((a) => a !== "unavailable");

function itemRow(i: number, ownership: ItemRow["ownership"]): ItemRow {
  const at = new Date(START.getTime() - 86_400_000 + Math.floor(i / 3) * 1000).toISOString();
  const locs = [L.room1, L.bin1, L.site1, L.site2, L.building1];
  return {
    id: id(),
    name: i % 50 === 7 ? `Projector Epson ${i}` : `${ownership === "owned" ? "Widget" : "Rental"} ${i}`,
    ownership,
    ownerPartyId: ownership === "external" ? partyId : null,
    agreementId: null,
    modelId: null,
    categoryId: i % 3 === 0 ? C.tools : i % 3 === 1 ? C.it : null,
    tracking: "serialised",
    quantity: 1,
    serialNumber: `SN-${ownership === "owned" ? "O" : "X"}${i}`,
    condition: CONDITIONS[i % CONDITIONS.length]!,
    qualityStatus: QUALITY_STATUSES[i % 7 === 0 ? 1 : 0]!,
    acquisitionCostAmount: i % 10 === 0 ? "1250.00" : null,
    acquisitionCostCurrency: i % 10 === 0 ? "EUR" : null,
    acquiredOn: null,
    attributes: { n: i },
    lifecycle: LIFECYCLES[i % LIFECYCLES.length]!,
    // As the kernel derives it: an item out of use is unavailable, any other spreads over the rest.
    availability: OUT_OF_USE.has(LIFECYCLES[i % LIFECYCLES.length]!) ? "unavailable" : IN_USE[(i * 7) % IN_USE.length]!,
    locationId: locs[i % locs.length]!,
    containerId: null,
    pendingImportId: null,
    version: 1,
    // Groups of three share updatedAt, so the id tie-break of the keyset is exercised.
    createdAt: at,
    updatedAt: at,
    createdBy: "seed",
  };
}

const GIAI_ITEM = 5;
const GIAI_VALUE = "(8004)0614141999995";
const EXTERNAL_GIAI = "(8004)0614141777777";

async function seed(handle: TenantHandle): Promise<void> {
  const at = START.toISOString();
  const meta = { status: "active" as const, version: 1, createdAt: at, updatedAt: at, createdBy: "seed" };
  for (let i = 0; i < 1000; i++) seeded.push(itemRow(i, "owned"));
  for (let i = 0; i < 30; i++) seeded.push(itemRow(i, "external"));
  await env.deps.tenancy.writeTx(handle, async (tx) => {
    await tx.insert(locations).values([
      { id: L.site1, parentId: null, name: "North Campus", kind: "site", code: "NC", ...meta },
      { id: L.building1, parentId: L.site1, name: "Main Warehouse", kind: "building", code: "NC-WH", ...meta },
      { id: L.room1, parentId: L.building1, name: "Cage", kind: "room", code: null, ...meta },
      { id: L.bin1, parentId: L.site1, name: "Bin 7", kind: "bin", code: "NC-B7", ...meta },
      { id: L.site2, parentId: null, name: "South Depot", kind: "site", code: "SD", ...meta },
    ]);
    await tx.insert(catalogCategories).values([
      { id: C.tools, name: "Tools", code: "TL", ...meta },
      { id: C.it, name: "IT", code: "IT", ...meta },
    ]);
    await tx.insert(parties).values([
      { id: partyId, name: "Warehouse Rentals Ltd", kind: "organisation", externalRef: "WR-1", ...meta },
      { id: id(), name: "Zephyr", kind: "organisation", externalRef: null, ...meta },
      { id: id(), name: "Zephyr Holdings International Group", kind: "organisation", externalRef: null, ...meta },
    ]);
    for (let i = 0; i < seeded.length; i += 200) await tx.insert(items).values(seeded.slice(i, i + 200));
    const ident = (itemId: string, value: string) => ({
      id: id(),
      itemId,
      scheme: "gs1_giai" as const,
      value,
      digitalLink: `https://id.gs1.org/8004/${value.slice(6)}`,
      epcUri: null,
      state: "active" as const,
      version: 1,
      createdAt: at,
      updatedAt: at,
      createdBy: "seed",
    });
    const ext = seeded.find((r) => r.ownership === "external")!;
    await tx.insert(identifiers).values([ident(owned()[GIAI_ITEM]!.id, GIAI_VALUE), ident(ext.id, EXTERNAL_GIAI)]);
    const co = (itemId: string, state: "reserved" | "checked_out" | "returned", dueAt: string | null) => ({
      id: id(),
      itemId,
      state,
      holderKind: "user" as const,
      holderId: "olga",
      startsAt: at,
      endsAt: null,
      dueAt,
      checkedOutAt: state === "reserved" ? null : at,
      returnedAt: state === "returned" ? at : null,
      acknowledgedAt: null,
      acknowledgedBy: null,
      note: null,
      returnCondition: null,
      returnLocationId: null,
      version: 1,
      createdAt: at,
      updatedAt: at,
      createdBy: "seed",
    });
    const o = owned();
    const past = new Date(START.getTime() - 3_600_000).toISOString();
    const future = new Date(START.getTime() + 3_600_000).toISOString();
    await tx.insert(checkouts).values([
      co(o[1]!.id, "checked_out", past),
      co(o[2]!.id, "checked_out", past),
      co(o[3]!.id, "checked_out", past),
      co(o[4]!.id, "checked_out", future),
      co(o[6]!.id, "checked_out", future),
      co(o[8]!.id, "returned", past),
      co(o[9]!.id, "reserved", null),
    ]);
  });
}

beforeAll(async () => {
  env = await createTestEnv({}, { clock });
  await env.provision(P);

  await env.member(P, "vera", "viewer");

  viewer = await env.token("vera");
  const handle = await env.deps.tenancy.acquire(P);
  try {
    await seed(handle);
  } finally {
    env.deps.tenancy.release(handle);
  }
});
afterAll(() => env.close());

const byOrder = (a: ItemRow, b: ItemRow) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1);

/** Follows nextCursor to the end; checks the page bound and a stable exact total. */
async function walk(path: string, limit = 200, token = viewer): Promise<{ ids: string[]; total: number; filters: unknown; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  let filters: unknown;
  let pages = 0;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const url = `${path}${sep}partnerId=${P}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const r = await env.call("GET", url, { token });
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeLessThanOrEqual(limit);
    expect(r.body.limit).toBe(limit);
    if (total >= 0) expect(r.body.total).toBe(total);
    total = r.body.total;
    filters = r.body.filters;
    for (const it of r.body.items) ids.push(it.id);
    cursor = r.body.nextCursor;
    pages++;
  } while (cursor);
  return { ids, total, filters, pages };
}

describe("GET /owned paging", () => {
  test("1,000 owned items: every one exactly once, at most 200 a page, exact total, (updatedAt, id) descending", async () => {
    const { ids, total, pages } = await walk("/api/assets/owned");
    expect(total).toBe(1000);
    expect(pages).toBe(5);
    expect(ids.length).toBe(1000);
    expect(new Set(ids).size).toBe(1000);
    expect(ids).toEqual([...owned()].sort(byOrder).map((r) => r.id));
  });

  test("first page shape: envelope, Item DTOs, asOf, empty filters", async () => {
    const r = await env.call("GET", `/api/assets/owned?partnerId=${P}`, { token: viewer });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["asOf", "filters", "items", "limit", "nextCursor", "total"]);
    expect(r.body.limit).toBe(50);
    expect(r.body.items.length).toBe(50);
    expect(r.body.filters).toEqual({});
    expect(typeof r.body.asOf).toBe("string");
    const top = [...owned()].sort(byOrder)[0]!;
    const first = r.body.items[0];
    expect(first.id).toBe(top.id);
    expect(first.ownership).toBe("owned");
    expect(first.attributes).toEqual(top.attributes);
    expect(first.acquisitionCost).toEqual(top.acquisitionCostAmount ? { amount: "1250.00", currency: "EUR" } : null);
  });

  test("paging rules: limit above 200, unknown parameters and foreign cursors are 400", async () => {
    expect((await env.call("GET", `/api/assets/owned?partnerId=${P}&limit=201`, { token: viewer })).status).toBe(400);
    const unknown = await env.call("GET", `/api/assets/owned?partnerId=${P}&ownerId=x`, { token: viewer });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe("/query/ownerId");
    const bad = await env.call("GET", `/api/assets/owned?partnerId=${P}&lifecycle=active,lost`, { token: viewer });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("/query/lifecycle");
    expect((await env.call("GET", `/api/assets/owned?partnerId=${P}&categoryId=nope`, { token: viewer })).status).toBe(400);
    const first = await env.call("GET", `/api/assets/owned?partnerId=${P}&lifecycle=active`, { token: viewer });
    const cursor = encodeURIComponent(first.body.nextCursor);
    // Bound to the filters and the route: another filter set or /loaned rejects it.
    const other = await env.call("GET", `/api/assets/owned?partnerId=${P}&lifecycle=retired&cursor=${cursor}`, { token: viewer });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe("invalid_cursor");
    expect((await env.call("GET", `/api/assets/loaned?partnerId=${P}&lifecycle=active&cursor=${cursor}`, { token: viewer })).status).toBe(400);
    expect((await env.call("GET", `/api/assets/owned?partnerId=${P}&cursor=abc.def`, { token: viewer })).status).toBe(400);
  });

  test("only members read: a stranger is 403, no token 401", async () => {
    const stranger = await env.token("mallory");
    expect((await env.call("GET", `/api/assets/owned?partnerId=${P}`, { token: stranger })).status).toBe(403);
    expect((await env.call("GET", `/api/assets/owned?partnerId=${P}`)).status).toBe(401);
  });
});

describe("GET /owned filters", () => {
  const inSubtree: Record<string, string[]> = {
    [L.site1]: [L.site1, L.building1, L.room1, L.bin1],
    [L.building1]: [L.building1, L.room1],
    [L.room1]: [L.room1],
    [L.site2]: [L.site2],
  };
  const cases: Array<{ name: string; query: string; echo: Record<string, unknown>; keep: (r: ItemRow) => boolean }> = [
    { name: "lifecycle", query: "lifecycle=active", echo: { lifecycle: ["active"] }, keep: (r) => r.lifecycle === "active" },
    {
      name: "lifecycle csv",
      query: "lifecycle=retired,%20active,retired",
      echo: { lifecycle: ["retired", "active"] },
      keep: (r) => r.lifecycle === "active" || r.lifecycle === "retired",
    },
    { name: "condition", query: "condition=poor,broken", echo: { condition: ["poor", "broken"] }, keep: (r) => r.condition === "poor" || r.condition === "broken" },
    { name: "qualityStatus", query: "qualityStatus=quarantined", echo: { qualityStatus: ["quarantined"] }, keep: (r) => r.qualityStatus === "quarantined" },
    {
      name: "availability",
      query: "availability=checked_out,in_transit",
      echo: { availability: ["checked_out", "in_transit"] },
      keep: (r) => r.availability === "checked_out" || r.availability === "in_transit",
    },
    { name: "categoryId", query: `categoryId=${C.tools}`, echo: { categoryId: C.tools }, keep: (r) => r.categoryId === C.tools },
    ...[L.site1, L.building1, L.room1, L.site2].map((loc) => ({
      name: `locationId subtree ${Object.entries(L).find(([, v]) => v === loc)![0]}`,
      query: `locationId=${loc}`,
      echo: { locationId: loc },
      keep: (r: ItemRow) => inSubtree[loc]!.includes(r.locationId),
    })),
    {
      name: "every filter together",
      query: `lifecycle=active,planned&condition=new,good,fair&qualityStatus=released&availability=available,reserved,checked_out&categoryId=${C.it}&locationId=${L.site1}`,
      echo: {
        lifecycle: ["active", "planned"],
        condition: ["new", "good", "fair"],
        qualityStatus: ["released"],
        availability: ["available", "reserved", "checked_out"],
        categoryId: C.it,
        locationId: L.site1,
      },
      keep: (r) =>
        ["active", "planned"].includes(r.lifecycle) &&
        ["new", "good", "fair"].includes(r.condition) &&
        r.qualityStatus === "released" &&
        ["available", "reserved", "checked_out"].includes(r.availability) &&
        r.categoryId === C.it &&
        inSubtree[L.site1]!.includes(r.locationId),
    },
  ];
  for (const c of cases) {
    test(`${c.name}: exact subset and total, filters echoed`, async () => {
      const expected = owned().filter(c.keep).sort(byOrder).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(0);
      const { ids, total, filters } = await walk(`/api/assets/owned?${c.query}`, 37);
      expect(total).toBe(expected.length);
      expect(ids).toEqual(expected);
      expect(filters).toEqual(c.echo);
    });
  }

  test("q finds by name words as prefixes, all words required", async () => {
    const expected = owned().filter((r) => r.name.startsWith("Projector Epson")).map((r) => r.id);
    const { ids, total, filters } = await walk(`/api/assets/owned?q=${encodeURIComponent("  proj EPS ")}`);
    expect(total).toBe(expected.length);
    expect(new Set(ids)).toEqual(new Set(expected));
    expect(filters).toEqual({ q: "proj EPS" });
    const none = await walk(`/api/assets/owned?q=${encodeURIComponent("projector widget")}`);
    expect(none.total).toBe(0);
  });

  test("q finds by identifier value in any spelling and by serial number, never another ownership's item", async () => {
    const target = owned()[GIAI_ITEM]!.id;
    for (const q of [GIAI_VALUE, "0614141999995", "https://id.gs1.org/8004/0614141999995"]) {
      const r = await walk(`/api/assets/owned?q=${encodeURIComponent(q)}`);
      expect(r.ids).toEqual([target]);
      expect(r.total).toBe(1);
    }
    const serial = await walk(`/api/assets/owned?q=${encodeURIComponent("SN-O123")}`);
    expect(serial.ids).toEqual([owned()[123]!.id]);
    // The loaned item's tag is not on the owned register.
    expect((await walk(`/api/assets/owned?q=${encodeURIComponent(EXTERNAL_GIAI)}`)).total).toBe(0);
    expect((await walk(`/api/assets/loaned?q=${encodeURIComponent(EXTERNAL_GIAI)}`)).total).toBe(1);
  });

  test("q combines with other filters; FTS syntax is inert; text without words is 400", async () => {
    const expected = owned().filter((r) => r.name.startsWith("Projector Epson") && r.lifecycle === "active");
    const r = await walk(`/api/assets/owned?q=epson&lifecycle=active`);
    expect(r.total).toBe(expected.length);
    for (const q of ['epson" OR "widget', "epson*", "NEAR(epson widget)", "name:epson", "epson AND widget"]) {
      const x = await env.call("GET", `/api/assets/owned?partnerId=${P}&q=${encodeURIComponent(q)}`, { token: viewer });
      expect(x.status).toBe(200);
    }
    // "epson OR widget" means all three words, so nothing has them all.
    expect((await walk(`/api/assets/owned?q=${encodeURIComponent("epson OR widget")}`)).total).toBe(0);
    const blank = await env.call("GET", `/api/assets/owned?partnerId=${P}&q=${encodeURIComponent(' *"() ')}`, { token: viewer });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([{ path: "/query/q", message: "q has no letters or digits to search for" }]);
    const long = await env.call("GET", `/api/assets/owned?partnerId=${P}&q=${"a".repeat(201)}`, { token: viewer });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe("/query/q");
  });
});

describe("GET /loaned", () => {
  test("lists only externally owned items, with the same filters", async () => {
    const external = seeded.filter((r) => r.ownership === "external");
    const all = await walk("/api/assets/loaned", 7);
    expect(all.total).toBe(30);
    expect(all.ids).toEqual([...external].sort(byOrder).map((r) => r.id));
    const active = await walk("/api/assets/loaned?lifecycle=active");
    expect(active.total).toBe(external.filter((r) => r.lifecycle === "active").length);
    const r = await env.call("GET", `/api/assets/loaned?partnerId=${P}&limit=1`, { token: viewer });
    expect(r.body.items[0].ownership).toBe("external");
    expect(r.body.items[0].ownerPartyId).toBe(partyId);
  });
});

describe("GET /summary", () => {
  test("exact counts by lifecycle and availability, overdue checkouts and in transit", async () => {
    const r = await env.call("GET", `/api/assets/summary?partnerId=${P}`, { token: viewer });
    expect(r.status).toBe(200);
    const count = <K extends string>(keys: readonly K[], pick: (x: ItemRow) => K) =>
      Object.fromEntries(keys.map((k) => [k, seeded.filter((x) => pick(x) === k).length]));
    expect(r.body).toEqual({
      totalItems: 1030,
      byLifecycle: count(LIFECYCLES, (x) => x.lifecycle),
      byAvailability: count(AVAILABILITIES, (x) => x.availability),
      overdueCheckouts: 3,
      inTransit: seeded.filter((x) => x.availability === "in_transit").length,
      openWorkOrders: 0,
      asOf: clock.now().toISOString(),
    });
    // Overdue is measured at the request's server time.
    clock.advance(2 * 3_600_000);
    try {
      const later = await env.call("GET", `/api/assets/summary?partnerId=${P}`, { token: await env.token("vera") });
      expect(later.body.overdueCheckouts).toBe(5);
      expect(later.body.asOf).toBe(clock.now().toISOString());
    } finally {
      clock.current = new Date(START);
    }
  });

  test("takes no query parameters but partnerId", async () => {
    expect((await env.call("GET", `/api/assets/summary?partnerId=${P}&x=1`, { token: viewer })).status).toBe(400);
  });
});

describe("GET /search", () => {
  test("finds items, identifiers, locations and parties, ranked, at most 50", async () => {
    const r = await env.call("GET", `/api/assets/search?partnerId=${P}&q=warehouse`, { token: viewer });
    expect(r.status).toBe(200);
    const types = r.body.items.map((h: { type: string }) => h.type).sort();
    expect(types).toEqual(["location", "party"]);
    const loc = r.body.items.find((h: { type: string }) => h.type === "location");
    expect(loc).toMatchObject({ id: L.building1, title: "Main Warehouse", subtitle: "NC-WH" });
    expect(loc.itemId).toBeUndefined();

    const tag = await env.call("GET", `/api/assets/search?partnerId=${P}&q=${encodeURIComponent(GIAI_VALUE)}`, { token: viewer });
    expect(tag.body.items).toHaveLength(1);
    expect(tag.body.items[0]).toMatchObject({ type: "identifier", title: GIAI_VALUE, itemId: owned()[GIAI_ITEM]!.id, rank: 1 });
    expect(tag.body.items[0].subtitle).toBe(`gs1_giai · ${owned()[GIAI_ITEM]!.name}`);

    const item = await env.call("GET", `/api/assets/search?partnerId=${P}&q=${encodeURIComponent("SN-O42")}`, { token: viewer });
    expect(item.body.items[0]).toMatchObject({ type: "item", id: owned()[42]!.id, itemId: owned()[42]!.id, title: "Widget 42", subtitle: "SN-O42" });

    const many = await env.call("GET", `/api/assets/search?partnerId=${P}&q=widget`, { token: viewer });
    expect(many.body.items).toHaveLength(50);
    expect(many.body.items.map((h: { rank: number }) => h.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  test("orders by BM25: the closer match ranks first", async () => {
    const r = await env.call("GET", `/api/assets/search?partnerId=${P}&q=zephyr`, { token: viewer });
    expect(r.body.items.map((h: { title: string }) => h.title)).toEqual(["Zephyr", "Zephyr Holdings International Group"]);
    const scores = r.body.items.map((h: { score: number }) => h.score);
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(r.body.items[0].subtitle).toBe("organisation");
  });

  test("q is required, 1–200 characters; text without words is 400", async () => {
    expect((await env.call("GET", `/api/assets/search?partnerId=${P}`, { token: viewer })).status).toBe(400);
    expect((await env.call("GET", `/api/assets/search?partnerId=${P}&q=%20%20`, { token: viewer })).status).toBe(400);
    expect((await env.call("GET", `/api/assets/search?partnerId=${P}&q=${"x".repeat(201)}`, { token: viewer })).status).toBe(400);
    const punct = await env.call("GET", `/api/assets/search?partnerId=${P}&q=${encodeURIComponent('"*')}`, { token: viewer });
    expect(punct.status).toBe(400);
    expect(punct.body.errors).toEqual([{ path: "/query/q", message: "q has no letters or digits to search for" }]);
  });
});

describe("query plans", () => {
  const plans: Record<string, string[]> = {};
  async function plan(handle: TenantHandle, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
    const { sql: text, params } = query.toSQL();
    const rows = await handle.db.rawRead(`EXPLAIN QUERY PLAN ${text}`, params);
    return rows.map((r) => String(r.detail));
  }

  const single: Array<[string, Partial<RegisterListQuery>]> = [
    ["none", {}],
    ["q", { q: "epson" }],
    ["lifecycle", { lifecycle: ["active"] }],
    ["lifecycle x2", { lifecycle: ["active", "retired"] }],
    ["condition", { condition: ["good"] }],
    ["qualityStatus", { qualityStatus: ["quarantined"] }],
    ["availability", { availability: ["available"] }],
    ["categoryId", { categoryId: C.tools }],
    ["locationId", { locationId: L.site1 }],
  ];
  for (const [name, filter] of single) {
    test(`${name}: page and count use an index, never a full scan of items`, async () => {
      const handle = await env.deps.tenancy.acquire(P);
      try {
        const q = handle.db.read as unknown as Querier;
        const where = registerFilters("owned", { limit: 50, ...filter } as RegisterListQuery).where();
        const keyset = sql`(${items.updatedAt}, ${items.id}) < (${START.toISOString()}, ${"z"})`;
        const orderBy = [desc(items.updatedAt), desc(items.id)];
        const page = await plan(handle, registerPage(q, where, orderBy, 51));
        const next = await plan(handle, registerPage(q, sql`${where} AND ${keyset}`, orderBy, 51));
        const total = await plan(handle, registerCount(q, where));
        plans[name] = [...page.map((p) => `page: ${p}`), ...total.map((p) => `count: ${p}`)];
        for (const detail of [...page, ...next, ...total]) {
          expect(detail).not.toMatch(/^SCAN items$/);
          expect(detail).not.toMatch(/^SCAN (i|items) (?!USING)/);
        }
        expect([...page, ...total].some((d) => /items_own_|INTEGER PRIMARY KEY|sqlite_autoindex_items/.test(d))).toBe(true);
      } finally {
        env.deps.tenancy.release(handle);
      }
    });
  }
  test("the summary's counts read covering indexes only", async () => {
    const handle = await env.deps.tenancy.acquire(P);
    try {
      const s = summaryQueries(handle.db.read as unknown as Querier, START.toISOString());
      expect((await plan(handle, s.byLifecycle)).join("\n")).toContain("USING COVERING INDEX items_lifecycle_idx");
      expect((await plan(handle, s.byAvailability)).join("\n")).toContain("USING COVERING INDEX items_availability_idx");
      expect((await plan(handle, s.overdue)).join("\n")).toContain("USING COVERING INDEX checkouts_due_idx (state=? AND due_at<?)");
      expect((await plan(handle, s.openWorkOrders)).join("\n")).toContain("USING COVERING INDEX work_orders_status_page_idx (status=?)");
    } finally {
      env.deps.tenancy.release(handle);
    }
  });

  test("the unfiltered page walks items_own_page_idx in order (no sort)", async () => {
    const handle = await env.deps.tenancy.acquire(P);
    try {
      const q = handle.db.read as unknown as Querier;
      const where = registerFilters("owned", { limit: 50 } as RegisterListQuery).where();
      const page = await plan(handle, registerPage(q, where, [desc(items.updatedAt), desc(items.id)], 51));
      expect(page.join("\n")).toContain("items_own_page_idx");
      expect(page.join("\n")).not.toContain("TEMP B-TREE");
      if (process.env.SHOW_PLANS) console.log(JSON.stringify(plans, null, 2));
    } finally {
      env.deps.tenancy.release(handle);
    }
  });
});

describe("ftsMatchQuery", () => {
  test("quotes each word as a prefix phrase of its letter and digit runs", () => {
    expect(ftsMatchQuery("Laptop  dell")).toBe('"Laptop"* AND "dell"*');
    expect(ftsMatchQuery("(8004)0614141999995")).toBe('"8004 0614141999995"*');
    expect(ftsMatchQuery('a"b OR NEAR(c)')).toBe('"a b"* AND "OR"* AND "NEAR c"*');
    expect(ftsMatchQuery("Café")).toBe('"Café"*');
    expect(ftsMatchQuery(' *"- ')).toBeNull();
    expect(ftsMatchQuery("")).toBeNull();
  });
});
