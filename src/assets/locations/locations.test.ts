// Locations told as an administrator's story: a tree of sites, buildings, rooms and
// bins, its moves and archiving, the list, and the checks other modules call.
import { test, expect, afterAll, describe } from "bun:test";
import { sql } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";
import { db } from "../../platform/db/transactions.ts";
import { activeLocationExists, locationExists, locationPath, locationPathFrom, requireLocation } from "./locations.service.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "loc-co", users: { ada: "admin", vic: "viewer", otto: "operator" }, tickMs: 1000 });
const P = api.partnerId;
afterAll(() => api.close());
// Members by role.
const viewer = "vic";
const operator = "otto";

describe("locations", () => {
  const ids: Record<string, string> = {};

  test("a site contains a building contains a room contains a bin; the bin reads with its path", async () => {
    const site = await api.post("/locations", { name: "Head office", kind: "site", code: "HQ" });
    expect(site.status).toBe(201);
    expect(site.body).toMatchObject({ name: "Head office", kind: "site", code: "HQ", parentId: null, status: "active", version: 1, createdBy: "ada" });
    expect(site.body.createdAt).toBe(clock.now().toISOString());
    expect(site.headers.get("location")).toBe(`/api/assets/locations/${site.body.id}?partnerId=${P}`);
    ids.site = site.body.id;
    ids.building = (await api.create("/locations", { name: "North wing", kind: "building", parentId: ids.site })).id;
    ids.room = (await api.create("/locations", { name: "Store room 1", kind: "room", parentId: ids.building, code: "NW-R1" })).id;
    ids.bin = (await api.create("/locations", { name: "Bin A-3", kind: "bin", parentId: ids.room })).id;

    const bin = await api.as(viewer).get(`/locations/${ids.bin}`);
    expect(bin.status).toBe(200);
    expect(bin.body).toMatchObject({ id: ids.bin, name: "Bin A-3", kind: "bin", parentId: ids.room, version: 1 });
    expect(bin.body.path).toEqual([
      { id: ids.site, name: "Head office", kind: "site" },
      { id: ids.building, name: "North wing", kind: "building" },
      { id: ids.room, name: "Store room 1", kind: "room" },
    ]);
    const root = await api.as(viewer).get(`/locations/${ids.site}`);
    expect(root.body.path).toEqual([]);
  });

  test("locationPath and locationPathFrom, the helpers other modules use, include the location itself, last", async () => {
    const chain = await api.inTenant((ctx) => locationPath(db(ctx), ids.bin!));
    expect(chain.map((c) => c.id)).toEqual([ids.site!, ids.building!, ids.room!, ids.bin!]);
    expect(await api.inTenant((ctx) => locationPath(db(ctx), Bun.randomUUIDv7()))).toEqual([]);

    // From a subquery, as the item detail reads it (the bin's parent here).
    const fromParent = await api.inTenant((ctx) => locationPathFrom(db(ctx), sql`(SELECT parent_id FROM locations WHERE id = ${ids.bin!})`));
    expect(fromParent).toEqual([
      { id: ids.site!, name: "Head office", kind: "site" },
      { id: ids.building!, name: "North wing", kind: "building" },
      { id: ids.room!, name: "Store room 1", kind: "room" },
    ]);
    expect(await api.inTenant((ctx) => locationPathFrom(db(ctx), sql`(SELECT parent_id FROM locations WHERE id = ${ids.site!})`))).toEqual([]);
  });

  test("a PATCH needs the current version, bumps it, and a no-op changes nothing", async () => {
    const stale = await api.patch(`/locations/${ids.bin}`, { expectedVersion: 2, name: "Bin A-4" });
    expectProblem(stale, 409, "version_conflict");
    expectFieldError(await api.patch(`/locations/${ids.bin}`, { name: "Bin A-4" }), "/body/expectedVersion");

    const renamed = await api.patch(`/locations/${ids.bin}`, { expectedVersion: 1, name: "Bin A-4", code: "A-4" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Bin A-4", code: "A-4", version: 2, parentId: ids.room });
    expect(renamed.body.updatedAt).toBe(clock.now().toISOString());

    const same = await api.patch(`/locations/${ids.bin}`, { expectedVersion: 2, name: "Bin A-4" });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(renamed.body);

    const cleared = await api.patch(`/locations/${ids.bin}`, { expectedVersion: 2, code: null });
    expect(cleared.body).toMatchObject({ code: null, version: 3 });
    expectProblem(await api.patch(`/locations/${Bun.randomUUIDv7()}`, { expectedVersion: 1, name: "x" }), 404, "not_found");
    expectProblem(await api.as(viewer).get(`/locations/${Bun.randomUUIDv7()}`), 404, "not_found");
  });

  test("a parent inside the location's own subtree is 409 cycle_detected; a valid move changes the path", async () => {
    expectProblem(await api.patch(`/locations/${ids.site}`, { expectedVersion: 1, parentId: ids.bin }), 409, "cycle_detected");
    expectProblem(await api.patch(`/locations/${ids.building}`, { expectedVersion: 1, parentId: ids.building }), 409, "cycle_detected");
    expectProblem(await api.patch(`/locations/${ids.building}`, { expectedVersion: 1, parentId: ids.room }), 409, "cycle_detected");

    const moved = await api.patch(`/locations/${ids.room}`, { expectedVersion: 1, parentId: ids.site });
    expect(moved.status).toBe(200);
    const room = await api.as(viewer).get(`/locations/${ids.room}`);
    expect(room.body.path.map((p: { id: string }) => p.id)).toEqual([ids.site]);
    const back = await api.patch(`/locations/${ids.room}`, { expectedVersion: 2, parentId: ids.building });
    expect(back.body).toMatchObject({ parentId: ids.building, version: 3 });
  });

  test("a code in use is 409 duplicate; an unknown parent is 400 at /body/parentId", async () => {
    expectProblem(await api.post("/locations", { name: "Second HQ", kind: "site", code: "HQ" }), 409, "duplicate");
    expectProblem(await api.patch(`/locations/${ids.building}`, { expectedVersion: 1, code: "NW-R1" }), 409, "duplicate");

    const ghost = Bun.randomUUIDv7();
    const res = await api.post("/locations", { name: "Nowhere", kind: "room", parentId: ghost });
    expectFieldError(res, "/body/parentId");
    expect(res.body.errors[0].message).toBe("unknown location");
    expectFieldError(await api.patch(`/locations/${ids.bin}`, { expectedVersion: 3, parentId: ghost }), "/body/parentId");
    // Bodies are strict: a wrong kind, an actor field or an unknown property is 400 with its path.
    expectFieldError(await api.post("/locations", { name: "X", kind: "planet" }), "/body/kind");
    expectFieldError(await api.post("/locations", { name: "X", kind: "site", createdBy: "eve" }), "/body/createdBy");
    expectFieldError(await api.post("/locations", { name: "  ", kind: "site" }), "/body/name");
  });

  test("archiving: not while it contains active locations; archived locations take no new references", async () => {
    expectProblem(await api.patch(`/locations/${ids.building}`, { expectedVersion: 1, status: "archived" }), 409, "state_conflict");

    const archived = await api.patch(`/locations/${ids.bin}`, { expectedVersion: 3, status: "archived" });
    expect(archived.body).toMatchObject({ status: "archived", version: 4 });
    const under = await api.post("/locations", { name: "Shelf", kind: "other", parentId: ids.bin });
    expectFieldError(under, "/body/parentId");
    expect(under.body.errors[0].message).toBe("location is archived");

    // The checks other modules call: requireLocation (400 at the given path) and the exists helpers.
    await expect(api.inTenant((ctx) => requireLocation(ctx, ids.bin!, "/body/locationId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/locationId", message: "location is archived" }],
    });
    await expect(api.inTenant((ctx) => requireLocation(ctx, Bun.randomUUIDv7(), "/body/toLocationId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/toLocationId", message: "unknown location" }],
    });
    expect((await api.inTenant((ctx) => requireLocation(ctx, ids.room!, "/body/locationId"))).id).toBe(ids.room!);
    expect(await api.inTenant((ctx) => activeLocationExists(ctx, ids.room!))).toBe(true);
    expect(await api.inTenant((ctx) => activeLocationExists(ctx, ids.bin!))).toBe(false);
    expect(await api.inTenant((ctx) => locationExists(ctx, ids.bin!))).toBe(true);
    expect(await api.inTenant((ctx) => locationExists(ctx, Bun.randomUUIDv7()))).toBe(false);

    // An archived child no longer blocks archiving its parent; unarchiving under an archived parent is refused.
    const room = await api.patch(`/locations/${ids.room}`, { expectedVersion: 3, status: "archived" });
    expect(room.body.status).toBe("archived");
    expectProblem(await api.patch(`/locations/${ids.bin}`, { expectedVersion: 4, status: "active" }), 409, "state_conflict");
    expect((await api.patch(`/locations/${ids.room}`, { expectedVersion: 4, status: "active" })).body.status).toBe("active");
    expect((await api.patch(`/locations/${ids.bin}`, { expectedVersion: 4, status: "active" })).body).toMatchObject({ status: "active", version: 5 });
  });

  test("the list filters by text, kind, status and parent with exact totals", async () => {
    ids.van = (await api.create("/locations", { name: "Service van", kind: "vehicle", code: "VAN-1" })).id;
    await api.patch(`/locations/${ids.van}`, { expectedVersion: 1, status: "archived" });
    const list = (qs: string) => api.as(viewer).get("/locations", { query: qs });

    const all = await list("");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(5);
    expect(all.body.items.map((l: { id: string }) => l.id)).toEqual([ids.van, ids.bin, ids.room, ids.building, ids.site]);
    expect(all.body.filters).toEqual({});

    const q = await list("&q=%20stor%20");
    expect(q.body).toMatchObject({ total: 1, filters: { q: "stor" } });
    expect(q.body.items[0].id).toBe(ids.room);
    expect((await list("&q=van-1")).body.items.map((l: { id: string }) => l.id)).toEqual([ids.van]);
    // Punctuation alone has no word to search for: a 400 that says so, not a dropped filter.
    expect((await list("&q=---")).body).toMatchObject({ status: 400, errors: [{ path: "/query/q", message: "q has no letters or digits to search for" }] });

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
    const first = await api.post("/locations", body, { idem: "dock-1" });
    const again = await api.post("/locations", body, { idem: "dock-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const children = await api.as(viewer).get("/locations", { query: `&parentId=${ids.building}` });
    expect(children.body.items.filter((l: { name: string }) => l.name === "Dock")).toHaveLength(1);
    expectProblem(await api.post("/locations", body, { idem: false }), 400, "idempotency_key_required");
  });

  test("a location that still holds an item cannot be archived", async () => {
    const cage = await api.create("/locations", { name: "Cage", kind: "other", parentId: ids.site });
    await api.create("/assets", { name: "Pallet jack", locationId: cage.id, ownership: "owned" });
    const res = await api.patch(`/locations/${cage.id}`, { expectedVersion: 1, status: "archived" });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toBe("items are still at this location; move them first");
  });
});

describe("capabilities", () => {
  test("a viewer reads locations but cannot write them; an operator cannot write them either", async () => {
    for (const [user, who] of [
      [viewer, "viewer"],
      [operator, "operator"],
    ] as const) {
      expectProblem(await api.as(user).post("/locations", { name: "X", kind: "site" }), 403, "capability_denied", `${who} POST /locations`);
      const first = (await api.as(user).get("/locations")).body.items[0];
      expectProblem(await api.as(user).patch(`/locations/${first.id}`, { expectedVersion: first.version, name: "Y" }), 403, "capability_denied");
    }
    expect((await api.as(viewer).get("/locations")).status).toBe(200);
  });
});
