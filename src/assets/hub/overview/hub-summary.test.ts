// GET /hub/summary and GET /hub/overview: exact counts read from the database, so
// after any mix of task operations they equal a direct count of the stored rows.
import { test, expect, afterAll, describe } from "bun:test";
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { db } from "../../../platform/db/transactions.ts";
import { hubTasks, HUB_TASK_TYPES } from "../tasks/tasks.tables.ts";
import { OPEN_TASK_STATES } from "../hub.states.ts";

const clock = new MutableClock(new Date("2026-06-03T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-summary", users: { ada: "admin", otto: "operator", olga: "operator", vic: "viewer" }, tickMs: 10 });
afterAll(() => api.close());

/** mulberry32: a small seeded PRNG, so the operation mix is the same on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The summary's numbers counted straight from hub_tasks, one plain count each (a different formulation from the service's grouped read). */
async function directCounts() {
  const open = inArray(hubTasks.status, [...OPEN_TASK_STATES]);
  const n = async (where: ReturnType<typeof and>) => (await api.read((q) => q.select({ n: count() }).from(hubTasks).where(where)))[0]!.n;
  const out: Record<string, number> = {};
  for (const t of HUB_TASK_TYPES) out[t] = await n(and(open, eq(hubTasks.taskType, t)));
  out.openTasks = await n(open);
  // Unassigned: no assignee among the open states (the service counts state `open`; the two must agree).
  out.unassigned = await n(and(open, isNull(hubTasks.assigneeUserId)));
  out.urgentUnassigned = await n(and(open, isNull(hubTasks.assigneeUserId), eq(hubTasks.urgent, true)));
  return out;
}

async function summary() {
  const res = await api.as("vic").get("/hub/summary");
  expect(res.status).toBe(200);
  const { asOf, ...counts } = res.body;
  expect(asOf).toBe(clock.current.toISOString());
  return counts as Record<string, number>;
}

describe("GET /hub/summary", () => {
  test("an empty hub counts zero everywhere", async () => {
    const empty = await partnerKit({ env: api.env, clock, partnerId: "hub-summary-empty", users: { ada: "admin" } });
    const res = await empty.get("/hub/summary");
    expect(res.body).toEqual({
      receiving: 0,
      putaway: 0,
      picking: 0,
      packing: 0,
      replenishment: 0,
      quality: 0,
      dock: 0,
      continuity: 0,
      openTasks: 0,
      unassigned: 0,
      urgentUnassigned: 0,
      asOf: clock.current.toISOString(),
    });
  });

  test("after 500 random task operations the counts equal a direct count of the stored tasks", async () => {
    const random = prng(20260603);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const target = (await api.seed.location({ name: "Summary bin", kind: "bin" })).id;
    const tasks = new Map<string, { status: string; assignee: string | null }>();
    const inState = (...states: string[]) => [...tasks].filter(([, t]) => states.includes(t.status)).map(([id]) => id);
    const tally: Record<string, number> = { create: 0, assign: 0, advance: 0, cancel: 0, refused: 0 };

    for (let op = 0; op < 500; op++) {
      const r = random();
      if (r < 0.35 || tasks.size === 0) {
        const taskType = pick(HUB_TASK_TYPES);
        const t = await api.create("/hub/tasks", { taskType, title: `Op ${op}`, urgent: random() < 0.3, targetLocationId: target });
        tasks.set(t.id, { status: "open", assignee: null });
        tally.create!++;
      } else if (r < 0.6) {
        const candidates = inState("open", "assigned", "in_progress");
        if (candidates.length === 0) continue;
        // Sometimes a batch, sometimes one task.
        const ids = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(candidates)))];
        const who = random() < 0.5 ? "otto" : "olga";
        const res = await api.post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: who, reason: `op ${op}` });
        const ok = ids.every((id) => tasks.get(id)!.assignee !== who);
        expect(res.status, JSON.stringify(res.body)).toBe(ok ? 200 : 409);
        if (ok) {
          for (const id of ids) {
            const t = tasks.get(id)!;
            tasks.set(id, { status: t.status === "open" ? "assigned" : t.status, assignee: who });
          }
          tally.assign!++;
        } else tally.refused!++;
      } else if (r < 0.85) {
        // Any task, so some advances are refused (open, completed, cancelled) and must change nothing.
        const id = pick([...tasks.keys()]);
        const t = tasks.get(id)!;
        const res = await api.post(`/hub/tasks/${id}/advance`, {});
        const next = t.status === "assigned" ? "in_progress" : t.status === "in_progress" ? "completed" : null;
        expect(res.status, JSON.stringify(res.body)).toBe(next ? 200 : 409);
        if (next) {
          tasks.set(id, { ...t, status: next });
          tally.advance!++;
        } else tally.refused!++;
      } else {
        const id = pick([...tasks.keys()]);
        const t = tasks.get(id)!;
        const res = await api.post(`/hub/tasks/${id}/cancel`, { reason: `op ${op}` });
        const ok = ["open", "assigned", "in_progress"].includes(t.status);
        expect(res.status).toBe(ok ? 200 : 409);
        if (ok) {
          tasks.set(id, { ...t, status: "cancelled" });
          tally.cancel!++;
        } else tally.refused!++;
      }
      if (op % 125 === 124) expect(await summary()).toEqual(await directCounts());
    }
    // The mix really exercised every operation.
    for (const k of Object.keys(tally)) expect(tally[k], k).toBeGreaterThan(20);

    const counts = await summary();
    expect(counts).toEqual(await directCounts());
    // And the model kept alongside agrees.
    expect(counts.openTasks).toBe(inState("open", "assigned", "in_progress").length);
    expect(counts.unassigned).toBe(inState("open").length);
  }, 60_000);

  test("the counts come from one covering scan of hub_tasks_counts_idx", async () => {
    const plan = await api.inTenant((ctx) =>
      db(ctx).all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT status, task_type, urgent, count(*) FROM hub_tasks
        WHERE status IN ('open', 'assigned', 'in_progress') GROUP BY status, task_type, urgent`),
    );
    const text = plan.map((p) => p.detail).join("\n");
    expect(text).toContain("USING COVERING INDEX hub_tasks_counts_idx");
    expect(text).not.toContain("TEMP B-TREE");
  });
});

describe("GET /hub/overview", () => {
  test("holds the summary and bounded lists of unclosed appointments, active holds and urgent unassigned tasks", async () => {
    const hub = await partnerKit({ env: api.env, clock, partnerId: "hub-overview", users: { ada: "admin", otto: "operator" }, tickMs: 1000 });
    const dock = (await hub.seed.location({ name: "Dock 1", kind: "room" })).id;
    const at = (h: number) => new Date(Date.parse("2026-06-04T00:00:00.000Z") + h * 3_600_000).toISOString();
    const late = await hub.create("/hub/dock-appointments", { locationId: dock, carrier: "Late Co", kind: "inbound", scheduledAt: at(2) });
    const soon = await hub.create("/hub/dock-appointments", { locationId: dock, carrier: "Soon Co", kind: "outbound", scheduledAt: at(1) });
    const done = await hub.create("/hub/dock-appointments", { locationId: dock, carrier: "Done Co", kind: "outbound", scheduledAt: at(0) });
    await hub.post(`/hub/dock-appointments/${done.id}/transition`, { to: "cancelled" });
    await hub.post(`/hub/dock-appointments/${late.id}/transition`, { to: "arrived" });

    const item = await hub.seed.activeAsset({ locationId: dock });
    const hold = await hub.create("/hub/quality-holds", { itemIds: [item.id], reason: "Dented", kind: "damage" });
    const released = await hub.create("/hub/quality-holds", { itemIds: [item.id], reason: "Paperwork", kind: "documentation" });
    await hub.post(`/hub/quality-holds/${released.id}/resolve`, { resolution: "release" });

    const urgent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const dueAt = i < 6 ? at(20 - i) : undefined;
      urgent.push((await hub.create("/hub/tasks", { taskType: "dock", title: `Urgent ${i}`, urgent: true, ...(dueAt ? { dueAt } : {}) })).id);
    }
    await hub.create("/hub/tasks", { taskType: "dock", title: "Not urgent" });
    await hub.post(`/hub/tasks/${urgent[0]}/assign`, { assigneeUserId: "otto", reason: "r" });

    const res = await hub.get("/hub/overview");
    expect(res.status).toBe(200);
    const o = res.body;
    expect(o.summary).toMatchObject({ dock: 13, openTasks: 13, unassigned: 12, urgentUnassigned: 11, asOf: o.asOf });
    expect(o.nextDockAppointments.map((a: { id: string }) => a.id)).toEqual([soon.id, late.id]);
    expect(o.activeHolds.map((h: { id: string }) => h.id)).toEqual([hold.id]);
    // Soonest due first (urgent 5 is due first, urgent 1 last of the dated ones), undated by age; at most 10.
    expect(o.urgentUnassigned).toHaveLength(10);
    expect(o.urgentUnassigned.map((t: { id: string }) => t.id)).toEqual([5, 4, 3, 2, 1, 6, 7, 8, 9, 10].map((i) => urgent[i]));
  });
});
