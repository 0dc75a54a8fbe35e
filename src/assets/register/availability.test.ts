// Availability `unavailable` (contract §9): an item that cannot be used whatever its
// custody — lifecycle planned, retired, disposed or consumed — says so in its detail,
// in the register lists and their `availability` filter, in the summary's exact
// counts, in saved views and in the OpenAPI document, instead of reading `available`
// while every command refuses it.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { items } from "../kernel/kernel.tables.ts";
import { AVAILABILITIES } from "../kernel/item.schemas.ts";

const DAY = 86_400_000;
const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { ada: "admin", ola: "operator", mia: "manager" } });
afterAll(() => api.close());

const ids = { planned: "", plannedInspected: "", active: "", lent: "", consumed: "", retired: "", disposed: "" };

/** A lifecycle_disposition case proposed by the operator and approved by the manager. */
async function dispose(itemId: string, action: "retire" | "dispose") {
  const proposed = await api.as("ola").post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId, action, ...(action === "dispose" ? { method: "scrap" } : {}) } });
  expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
  const decided = await api.as("mia").post(`/workflow-cases/${proposed.body.id}/decision`, { decision: "approve", reason: "Beyond repair", expectedVersion: proposed.body.version });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
}

beforeAll(async () => {
  const store = (await api.seed.location({ name: "Store" })).id;
  ids.planned = (await api.seed.asset({ name: "Unboxed laptop", locationId: store })).id;
  // A planned item under an inspection: nothing can be done with it either way.
  ids.plannedInspected = (await api.seed.asset({ name: "Delivered forklift", locationId: store })).id;
  await api.create("/work-orders", { itemId: ids.plannedInspected, kind: "inspection", title: "Inspect on delivery" });
  ids.active = (await api.seed.activeAsset({ name: "Cordless drill", locationId: store })).id;
  ids.lent = (await api.seed.activeAsset({ name: "Camera", locationId: store })).id;
  await api.seed.checkout({ itemId: ids.lent });
  ids.consumed = (await api.seed.activeAsset({ name: "Cable ties", locationId: store, tracking: "quantity", quantity: 2 })).id;
  const used = await api.post(`/items/${ids.consumed}/consume`, { quantity: 2 });
  expect(used.status, JSON.stringify(used.body)).toBe(200);
  ids.retired = (await api.seed.activeAsset({ name: "Old printer", locationId: store })).id;
  await dispose(ids.retired, "retire");
  ids.disposed = (await api.seed.activeAsset({ name: "Broken chair", locationId: store })).id;
  await dispose(ids.disposed, "dispose");
});

const UNAVAILABLE = () => [ids.planned, ids.plannedInspected, ids.consumed, ids.retired, ids.disposed];

describe("an item that cannot be used is unavailable", () => {
  test("in its detail, whatever its custody or work orders", async () => {
    const expected: Record<string, [string, string]> = {
      [ids.planned]: ["planned", "unavailable"],
      [ids.plannedInspected]: ["planned", "unavailable"],
      [ids.active]: ["active", "available"],
      [ids.lent]: ["active", "checked_out"],
      [ids.consumed]: ["consumed", "unavailable"],
      [ids.retired]: ["retired", "unavailable"],
      [ids.disposed]: ["disposed", "unavailable"],
    };
    for (const [id, [lifecycle, availability]] of Object.entries(expected)) {
      const r = await api.get(`/items/${id}`);
      expect(r.status).toBe(200);
      expect({ lifecycle: r.body.lifecycle, availability: r.body.availability }, r.body.name).toEqual({ lifecycle, availability });
    }
    // The stored row agrees with what the API shows.
    const rows = await api.read((q) => q.select({ id: items.id, availability: items.availability }).from(items));
    expect(rows.filter((r) => r.availability === "unavailable").map((r) => r.id).sort()).toEqual(UNAVAILABLE().sort());
  });

  test("commands still refuse it: a retired item is not checked out", async () => {
    const r = await api.post("/checkouts", { itemId: ids.retired, holder: { kind: "user", id: "ola" }, dueAt: new Date(clock.now().getTime() + DAY).toISOString() });
    expectProblem(r, 409, "state_conflict");
  });

  test("in GET /owned, whose availability filter finds it and no longer counts it available", async () => {
    const unavailable = await api.get("/owned", { query: { availability: "unavailable" } });
    expect(unavailable.status, JSON.stringify(unavailable.body)).toBe(200);
    expect(unavailable.body.total).toBe(5);
    expect(unavailable.body.filters).toEqual({ availability: ["unavailable"] });
    expect(unavailable.body.items.map((i: { id: string }) => i.id).sort()).toEqual(UNAVAILABLE().sort());
    for (const i of unavailable.body.items) expect(i.availability).toBe("unavailable");

    const available = await api.get("/owned", { query: { availability: "available" } });
    expect(available.body.total).toBe(1);
    expect(available.body.items.map((i: { id: string }) => i.id)).toEqual([ids.active]);

    const both = await api.get("/owned", { query: { availability: "available,unavailable", lifecycle: "retired,disposed" } });
    expect(both.body.total).toBe(2);
    expect(both.body.filters).toEqual({ lifecycle: ["retired", "disposed"], availability: ["available", "unavailable"] });
  });

  test("in GET /summary, which lists every availability with exact counts", async () => {
    const s = (await api.get("/summary")).body;
    expect(Object.keys(s.byAvailability).sort()).toEqual([...AVAILABILITIES].sort());
    expect(s.byAvailability).toEqual({
      available: 1,
      reserved: 0,
      checked_out: 1,
      in_transit: 0,
      in_maintenance: 0,
      on_hold: 0,
      unavailable: 5,
    });
    expect(s.totalItems).toBe(7);
    expect(Object.values(s.byAvailability as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(s.totalItems);
  });

  test("a saved view of the owned register may filter on it", async () => {
    const v = await api.post("/saved-views", { name: "Out of use", surface: "owned", query: { availability: "unavailable" } });
    expect(v.status, JSON.stringify(v.body)).toBe(201);
    expect(v.body.query).toEqual({ availability: "unavailable" });
  });

  test("the OpenAPI document names it in the item, the filter and the summary", async () => {
    const doc = (await api.env.call("GET", "/api/assets/openapi.json", {})).body;
    const schemas = doc.components.schemas;
    expect(schemas.Item.properties.availability.enum).toContain("unavailable");
    expect(schemas.Item.properties.availability.description).toContain("unavailable");
    expect(schemas.AssetSummary.properties.byAvailability.required).toContain("unavailable");
    const owned = doc.paths["/owned"].get.parameters.find((p: { name: string }) => p.name === "availability");
    expect(owned.schema.description).toContain("unavailable");
  });
});
