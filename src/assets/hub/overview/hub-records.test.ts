// GET /hub/records: the companion records of one type as a uniform projection,
// ordered by each type's authoritative timestamp and id, paged exactly.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { desc } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { continuityRuns } from "../continuity/continuity.tables.ts";
import { dockAppointments } from "../dock/dock.tables.ts";
import { qualityHolds } from "../holds/holds.tables.ts";
import { replenishmentRules } from "../replenishment/replenishment.tables.ts";

const clock = new MutableClock(new Date("2026-06-09T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-records", users: { ada: "admin", vic: "viewer" }, tickMs: 1000 });
afterAll(() => api.close());

let dock = "";
const slot = (h: number) => new Date(Date.parse("2026-06-10T00:00:00.000Z") + h * 3_600_000).toISOString();

beforeAll(async () => {
  dock = (await api.seed.location({ name: "Dock", kind: "room" })).id;
  // Appointments: scheduledAt not in creation order, two sharing a slot (the id breaks the tie).
  for (const [h, carrier] of [
    [5, "Acme Freight"],
    [1, "Beta Logistics"],
    [9, "acme express"],
    [5, "Gamma"],
    [3, "Delta"],
    [7, "Acme Freight"],
    [2, "Epsilon"],
  ] as const) {
    await api.create("/hub/dock-appointments", { locationId: dock, carrier, kind: h % 2 ? "inbound" : "outbound", scheduledAt: slot(h), reference: `REF-${h}` });
  }
  const items = [];
  for (let i = 0; i < 5; i++) items.push((await api.seed.activeAsset({ locationId: dock })).id);
  for (const [i, reason] of ["Dented case", "Recall R-7", "Dented lid", "Wet packaging", "Missing manual"].entries()) {
    const hold = await api.create("/hub/quality-holds", { itemIds: [items[i]], reason, kind: i === 1 ? "recall" : "damage" });
    if (i % 2 === 0) await api.post(`/hub/quality-holds/${hold.id}/resolve`, { resolution: "release" });
  }
  const category = (await api.seed.category()).id;
  for (let i = 0; i < 4; i++) {
    const model = (await api.seed.model({ categoryId: category })).id;
    await api.create("/hub/replenishment-rules", { locationId: dock, modelId: model, min: i, max: 10, ...(i % 2 ? { label: `Spare parts ${i}` } : {}) });
  }
  for (const scenario of ["Power loss", "Flood in aisle 3", "Power surge"]) await api.create("/hub/continuity-runs", { scenario, checklist: ["Check"] });
});

type Row = { id: string; at: string };

/** Walks every page of the query `limit` records at a time; checks each page's total and that the walk never repeats a record. */
async function walk(query: Record<string, string | number>, limit: number): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | undefined;
  let total: number | undefined;
  do {
    const res = await api.as("vic").get("/hub/records", { query: { ...query, limit, ...(cursor ? { cursor } : {}) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.records.length).toBeLessThanOrEqual(limit);
    total ??= res.body.total;
    expect(res.body.total).toBe(total!);
    out.push(...res.body.records);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  expect(out.length).toBe(total!);
  expect(new Set(out.map((r) => r.id)).size).toBe(out.length);
  return out;
}

/** (timestamp, id) descending, as the contract orders lists. */
const byTsDesc = (rows: Array<{ id: string; ts: string }>) =>
  [...rows].sort((a, b) => (a.ts === b.ts ? (a.id < b.id ? 1 : -1) : a.ts < b.ts ? 1 : -1)).map((r) => r.id);

describe("GET /hub/records", () => {
  test("each type pages exactly in its authoritative order, the same at every page size", async () => {
    const stored = {
      appointment: (await api.read((q) => q.select().from(dockAppointments))).map((r) => ({ id: r.id, ts: r.scheduledAt })),
      hold: (await api.read((q) => q.select().from(qualityHolds))).map((r) => ({ id: r.id, ts: r.placedAt })),
      rule: (await api.read((q) => q.select().from(replenishmentRules))).map((r) => ({ id: r.id, ts: r.updatedAt })),
      continuity: (await api.read((q) => q.select().from(continuityRuns))).map((r) => ({ id: r.id, ts: r.startedAt })),
    };
    for (const [recordType, rows] of Object.entries(stored)) {
      const expected = byTsDesc(rows);
      for (const limit of [1, 2, 3, 200]) {
        const got = await walk({ recordType }, limit);
        expect(got.map((r) => r.id), `${recordType} by ${limit}`).toEqual(expected);
        expect(got.map((r) => r.at)).toEqual(got.map((r) => rows.find((x) => x.id === r.id)!.ts));
      }
    }
    // Ties on scheduledAt are broken by id, descending.
    const tied = stored.appointment.filter((a) => a.ts === slot(5)).map((a) => a.id).sort().reverse();
    const order = (await walk({ recordType: "appointment" }, 50)).map((r) => r.id);
    expect(order.indexOf(tied[0]!)).toBe(order.indexOf(tied[1]!) - 1);
  });

  test("a walk yields every record once even when records are added during it", async () => {
    const first = await api.get("/hub/records", { query: { recordType: "appointment", limit: 3 } });
    const seen = first.body.records.map((r: Row) => r.id);
    // A record later than the cursor (in front of it) and one earlier (still ahead of the walk).
    await api.create("/hub/dock-appointments", { locationId: dock, carrier: "Late booking", kind: "inbound", scheduledAt: slot(20) });
    const early = await api.create("/hub/dock-appointments", { locationId: dock, carrier: "Early booking", kind: "inbound", scheduledAt: slot(0) });
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await api.get("/hub/records", { query: { recordType: "appointment", limit: 3, cursor } });
      seen.push(...page.body.records.map((r: Row) => r.id));
      cursor = page.body.nextCursor;
    }
    const before = (await api.read((q) => q.select().from(dockAppointments).orderBy(desc(dockAppointments.scheduledAt), desc(dockAppointments.id)))).map((r) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before.filter((id) => seen.includes(id)));
    expect(seen).toContain(early.id);
    expect(seen.length).toBe(before.length - 1);
  });

  test("q and status narrow each type, with exact totals, and are echoed", async () => {
    const acme = await api.get("/hub/records", { query: { recordType: "appointment", q: "ACME" } });
    expect(acme.body.records.map((r: { title: string }) => r.title).sort()).toEqual(["Acme Freight", "Acme Freight", "acme express"]);
    expect(acme.body).toMatchObject({ total: 3, filters: { recordType: "appointment", q: "ACME" } });
    expect((await api.get("/hub/records", { query: { recordType: "appointment", q: "ref-9" } })).body.total).toBe(1);

    const dented = await api.get("/hub/records", { query: { recordType: "hold", q: "dented" } });
    expect(dented.body.total).toBe(2);
    const active = await api.get("/hub/records", { query: { recordType: "hold", status: "active" } });
    expect(active.body.records.map((r: { title: string }) => r.title).sort()).toEqual(["Recall R-7", "Wet packaging"]);
    expect(active.body.filters).toEqual({ recordType: "hold", status: ["active"] });
    expect((await api.get("/hub/records", { query: { recordType: "hold", status: "active", q: "recall" } })).body.total).toBe(1);

    expect((await api.get("/hub/records", { query: { recordType: "rule", q: "spare" } })).body.total).toBe(2);
    expect((await api.get("/hub/records", { query: { recordType: "rule", status: "active" } })).body.total).toBe(4);
    // A status the type never has matches nothing (not an error).
    expect((await api.get("/hub/records", { query: { recordType: "rule", status: "scheduled" } })).body).toMatchObject({ total: 0, records: [] });
    expect((await api.get("/hub/records", { query: { recordType: "appointment", status: "resolved,active" } })).body.total).toBe(0);
    const power = await api.get("/hub/records", { query: { recordType: "continuity", q: "power", status: "in_progress" } });
    expect(power.body.records.map((r: { title: string }) => r.title)).toEqual(["Power surge", "Power loss"]);
  });

  test("records are one strict projection per type with the full record as `detail`", async () => {
    const [rule] = (await api.get("/hub/records", { query: { recordType: "rule", q: "spare parts 3" } })).body.records;
    expect(Object.keys(rule).sort()).toEqual(["at", "createdAt", "createdBy", "detail", "id", "kind", "locationId", "recordType", "status", "title", "updatedAt", "version"]);
    expect(rule).toMatchObject({ recordType: "rule", kind: null, title: "Spare parts 3", status: "active", locationId: dock, detail: { min: 3, max: 10, label: "Spare parts 3" } });
    const [unlabelled] = (await api.get("/hub/records", { query: { recordType: "rule", limit: 200 } })).body.records.filter((r: { detail: { label: string | null } }) => r.detail.label === null);
    expect(unlabelled.title).toMatch(/^min \d, max 10$/);
    const [hold] = (await api.get("/hub/records", { query: { recordType: "hold", q: "recall" } })).body.records;
    expect(hold).toMatchObject({ kind: "recall", status: "active", locationId: null, at: hold.detail.placedAt });
    const detail = await api.get(`/hub/records/${hold.id}`);
    expect(detail.body).toMatchObject({ ...hold, events: [{ kind: "placed", actorId: "ada", reason: "Recall R-7" }] });
    expectProblem(await api.get(`/hub/records/${Bun.randomUUIDv7()}`), 404, "not_found");
  });

  test("recordType is required; a cursor of other filters or another type is 400 invalid_cursor", async () => {
    expectFieldError(await api.get("/hub/records"), "/query/recordType");
    expectFieldError(await api.get("/hub/records", { query: { recordType: "task" } }), "/query/recordType");
    expectFieldError(await api.get("/hub/records", { query: { recordType: "hold", status: "lost" } }), "/query/status");
    expectFieldError(await api.get("/hub/records", { query: { recordType: "hold", limit: 201 } }), "/query/limit");
    const page = await api.get("/hub/records", { query: { recordType: "appointment", limit: 1 } });
    expectProblem(await api.get("/hub/records", { query: { recordType: "hold", limit: 1, cursor: page.body.nextCursor } }), 400, "invalid_cursor");
    expectProblem(await api.get("/hub/records", { query: { recordType: "appointment", q: "acme", limit: 1, cursor: page.body.nextCursor } }), 400, "invalid_cursor");
    expectProblem(await api.get("/hub/records", { query: { recordType: "appointment", limit: 1, cursor: `${page.body.nextCursor}x` } }), 400, "invalid_cursor");
  });
});

describe("indexes", () => {
  test("every counted filter of /hub/tasks and /hub/records is served by an index", async () => {
    const { db } = await import("../../../platform/db/transactions.ts");
    const { sql } = await import("drizzle-orm");
    const prefix = (col: string) => `(lower(${col}) >= lower('ab') AND lower(${col}) < lower('ab') || char(1114111))`;
    const counts: Array<[string, string]> = [
      ["hub_tasks", "status IN ('open', 'assigned')"],
      ["hub_tasks", "task_type IN ('dock')"],
      ["hub_tasks", prefix("title")],
      ["hub_dock_appointments", "status IN ('scheduled')"],
      ["hub_dock_appointments", `${prefix("carrier")} OR ${prefix("reference")}`],
      ["hub_quality_holds", "status IN ('active')"],
      ["hub_quality_holds", `${prefix("reason")} OR ${prefix("reference")}`],
      ["hub_replenishment_rules", prefix("label")],
      ["hub_continuity_runs", "status IN ('in_progress')"],
      ["hub_continuity_runs", prefix("scenario")],
    ];
    for (const [table, where] of counts) {
      const plan = await api.inTenant((ctx) => db(ctx).all<{ detail: string }>(sql.raw(`EXPLAIN QUERY PLAN SELECT count(*) FROM ${table} WHERE ${where}`)));
      const text = plan.map((p) => p.detail).join("\n");
      expect(text, `${table}: ${where}`).toContain("INDEX");
      expect(text, `${table}: ${where}`).not.toMatch(new RegExp(`SCAN ${table}$`, "m"));
    }
  });
});
