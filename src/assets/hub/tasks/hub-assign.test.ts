// Assigning hub tasks: one command for up to 100 tasks that changes all of them or
// none, names every failing id, and only assigns users holding hub_assignee.
import { test, expect, afterAll, describe } from "bun:test";
import { and, count, eq, inArray } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { hubTaskEvents, hubTasks } from "./tasks.tables.ts";

const clock = new MutableClock(new Date("2026-06-02T08:00:00.000Z"));
const api = await partnerKit({
  clock,
  partnerId: "hub-assign",
  users: { ada: "admin", otto: "operator", olga: "operator", max: "manager", vic: "viewer" },
  tickMs: 1000,
});
afterAll(() => api.close());

async function tasks(n: number, title = "Task"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await api.create("/hub/tasks", { taskType: "picking", title: `${title} ${i}`, targetLocationId: await target() })).id);
  return ids;
}
let targetId: string | undefined;
const target = async () => (targetId ??= (await api.seed.location({ name: "Outbound", kind: "room" })).id);

/** Every stored field of the tasks and their event count: what a refused command must leave as it was. */
async function snapshot(ids: string[]) {
  const rows = await api.read((q) => q.select().from(hubTasks).where(inArray(hubTasks.id, ids)));
  const [events] = await api.read((q) => q.select({ n: count() }).from(hubTaskEvents));
  return { rows: rows.sort((a, b) => a.id.localeCompare(b.id)), events: events!.n };
}

describe("POST /hub/tasks/assign", () => {
  test("assigns 100 tasks at once: each becomes assigned with one actor-attributed history event", async () => {
    const ids = await tasks(100, "Bulk");
    const [before] = await api.read((q) => q.select({ n: count() }).from(hubTaskEvents).where(eq(hubTaskEvents.kind, "assigned")));
    const res = await api.as("max").post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: "otto", reason: "morning wave" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tasks).toHaveLength(100);
    expect(res.body.tasks.map((t: { id: string }) => t.id)).toEqual(ids);
    for (const t of res.body.tasks) expect(t).toMatchObject({ status: "assigned", assigneeUserId: "otto", assignedAt: clock.current.toISOString(), version: 2 });

    const events = await api.read((q) => q.select().from(hubTaskEvents).where(and(inArray(hubTaskEvents.taskId, ids), eq(hubTaskEvents.kind, "assigned"))));
    expect(events).toHaveLength(100);
    expect(new Set(events.map((e) => e.taskId)).size).toBe(100);
    for (const e of events) expect(e).toMatchObject({ actorId: "max", reason: "morning wave", recordedAt: clock.current.toISOString(), data: { assigneeUserId: "otto" } });
    const [after] = await api.read((q) => q.select({ n: count() }).from(hubTaskEvents).where(eq(hubTaskEvents.kind, "assigned")));
    expect(after!.n - before!.n).toBe(100);

    // Reassigning keeps the state and records who it came from.
    const again = await api.post("/hub/tasks/assign", { taskIds: ids.slice(0, 2), assigneeUserId: "olga", reason: "otto is off sick" });
    expect(again.body.tasks.map((t: { status: string; assigneeUserId: string }) => `${t.status}:${t.assigneeUserId}`)).toEqual(["assigned:olga", "assigned:olga"]);
    expect((await api.get(`/hub/tasks/${ids[0]}`)).body.events[0]).toMatchObject({ kind: "assigned", data: { previousAssigneeUserId: "otto", assigneeUserId: "olga" } });
    }, 30_000);

  test("one completed task refuses the whole command (409) and names it; nothing changes", async () => {
    const ids = await tasks(5, "Wave with a completed");
    const done = ids[3]!;
    await api.post(`/hub/tasks/${done}/assign`, { assigneeUserId: "olga", reason: "r" });
    await api.post(`/hub/tasks/${done}/advance`, {});
    await api.post(`/hub/tasks/${done}/advance`, {});
    const before = await snapshot(ids);
    const res = await api.post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: "otto", reason: "wave" });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.failedTaskIds).toEqual([done]);
    expect(res.body.errors).toEqual([{ path: "/body/taskIds/3", message: `task ${done} is completed` }]);
    expect(res.body.detail).toContain(done);
    expect(await snapshot(ids)).toEqual(before);
  });

  test("a cancelled task, or one already assigned to this assignee, is refused the same way", async () => {
    const ids = await tasks(3, "Wave with a cancelled");
    await api.post(`/hub/tasks/${ids[0]}/cancel`, {});
    await api.post(`/hub/tasks/${ids[2]}/assign`, { assigneeUserId: "otto", reason: "r" });
    const before = await snapshot(ids);
    const res = await api.post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: "otto", reason: "wave" });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.failedTaskIds).toEqual([ids[0], ids[2]]);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["/body/taskIds/0", "/body/taskIds/2"]);
    expect(await snapshot(ids)).toEqual(before);
  });

  test("a duplicate id is 400 naming it; nothing changes", async () => {
    const ids = await tasks(4, "Wave with a duplicate");
    const before = await snapshot(ids);
    const res = await api.post("/hub/tasks/assign", { taskIds: [...ids, ids[1]], assigneeUserId: "otto", reason: "wave" });
    expectFieldError(res, "/body/taskIds/4");
    expect(res.body.failedTaskIds).toEqual([ids[1]]);
    expect(res.body.detail).toContain(ids[1]!);
    expect(await snapshot(ids)).toEqual(before);
  });

  test("a missing id (another partner's too) is 404 naming it; nothing changes", async () => {
    const ids = await tasks(4, "Wave with a missing");
    const other = await partnerKit({ env: api.env, clock, partnerId: "hub-assign-other", users: { ada: "admin", otto: "operator" } });
    const foreign = (await other.create("/hub/tasks", { taskType: "dock", title: "Theirs" })).id;
    const ghost = Bun.randomUUIDv7();
    const before = await snapshot(ids);
    const res = await api.post("/hub/tasks/assign", { taskIds: [ids[0], ghost, ...ids.slice(1), foreign], assigneeUserId: "otto", reason: "wave" });
    expectProblem(res, 404, "not_found");
    expect(res.body.failedTaskIds).toEqual([ghost, foreign]);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["/body/taskIds/1", "/body/taskIds/5"]);
    expect(res.body.detail).toContain(ghost);
    expect(await snapshot(ids)).toEqual(before);
    expect((await other.get(`/hub/tasks/${foreign}`)).body).toMatchObject({ status: "open", version: 1 });
  });

  test("101 ids, none, a blank reason or a malformed id are 400", async () => {
    const ids = Array.from({ length: 101 }, () => Bun.randomUUIDv7());
    expectFieldError(await api.post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: "otto", reason: "wave" }), "/body/taskIds");
    expectFieldError(await api.post("/hub/tasks/assign", { taskIds: [], assigneeUserId: "otto", reason: "wave" }), "/body/taskIds");
    expectFieldError(await api.post("/hub/tasks/assign", { taskIds: ids.slice(0, 1), assigneeUserId: "otto", reason: "  " }), "/body/reason");
    expectFieldError(await api.post("/hub/tasks/assign", { taskIds: ids.slice(0, 1), assigneeUserId: "otto" }), "/body/reason");
    expectFieldError(await api.post("/hub/tasks/assign", { taskIds: ["nope"], assigneeUserId: "otto", reason: "wave" }), "/body/taskIds/0");
  });

  test("a retry with the same Idempotency-Key replays the first answer and assigns nothing twice", async () => {
    const ids = await tasks(3, "Retried wave");
    const body = { taskIds: ids, assigneeUserId: "otto", reason: "wave" };
    const first = await api.post("/hub/tasks/assign", body, { idem: "wave-retry-1" });
    expect(first.status).toBe(200);
    const before = await snapshot(ids);
    const replay = await api.post("/hub/tasks/assign", body, { idem: "wave-retry-1" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await snapshot(ids)).toEqual(before);
    // Without the key, the same command is a new one: the tasks are already otto's.
    expectProblem(await api.post("/hub/tasks/assign", body), 409, "state_conflict");
  });

  test("a viewer holds no ams_operate and cannot assign", async () => {
    const [id] = await tasks(1, "Viewer assigns");
    expectProblem(await api.as("vic").post("/hub/tasks/assign", { taskIds: [id], assigneeUserId: "otto", reason: "r" }), 403, "capability_denied");
  });
});

describe("who may be assigned", () => {
  test("a viewer, a stranger or an unknown user is 400 at /body/assigneeUserId, bulk and single, and nothing changes", async () => {
    const ids = await tasks(2, "Assignee check");
    const before = await snapshot(ids);
    for (const who of ["vic", "nobody"]) {
      const bulk = await api.post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: who, reason: "r" });
      expectFieldError(bulk, "/body/assigneeUserId");
      expect(bulk.body.detail).toContain(who);
      expectFieldError(await api.post(`/hub/tasks/${ids[0]}/assign`, { assigneeUserId: who, reason: "r" }), "/body/assigneeUserId");
    }
    const vic = await api.post(`/hub/tasks/${ids[0]}/assign`, { assigneeUserId: "vic", reason: "r" });
    expect(vic.body.errors[0].message).toBe("vic does not hold the hub_assignee capability and cannot be assigned hub tasks");
    expect(await snapshot(ids)).toEqual(before);
  });

  test("an operator whose hub_assignee was removed by PUT /capabilities is refused; a granted viewer is accepted", async () => {
    const ids = await tasks(2, "After the capability change");
    const put = await api.put("/capabilities/hub_assignee", { roleDefaults: ["manager", "admin", "owner"], grants: [{ userId: "vic", expiresAt: null }] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      const refused = await api.post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: "otto", reason: "r" });
      expectFieldError(refused, "/body/assigneeUserId");
      expect(refused.body.errors[0].message).toContain("hub_assignee");
      // The operator can still do the work of assigning (ams_operate); only being assigned is gone.
      const granted = await api.as("olga").post("/hub/tasks/assign", { taskIds: ids, assigneeUserId: "vic", reason: "temp cover" });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      expect(granted.body.tasks.every((t: { assigneeUserId: string }) => t.assigneeUserId === "vic")).toBe(true);
    } finally {
      await api.put("/capabilities/hub_assignee", { roleDefaults: ["operator", "manager", "admin", "owner"], grants: [] });
    }
    expect((await api.post(`/hub/tasks/${ids[0]}/assign`, { assigneeUserId: "otto", reason: "back" })).status).toBe(200);
  });
});

describe("POST /hub/tasks/{id}/assign", () => {
  test("assigns one task, reassigns an in-progress one keeping its state, and names refused states", async () => {
    const [id] = await tasks(1, "Single");
    const first = await api.post(`/hub/tasks/${id}/assign`, { assigneeUserId: "otto", reason: "r", expectedVersion: 1 });
    expect(first.body).toMatchObject({ status: "assigned", assigneeUserId: "otto", version: 2 });
    expectProblem(await api.post(`/hub/tasks/${id}/assign`, { assigneeUserId: "olga", reason: "r", expectedVersion: 1 }), 409, "version_conflict");
    const same = await api.post(`/hub/tasks/${id}/assign`, { assigneeUserId: "otto", reason: "r" });
    expectProblem(same, 409, "state_conflict");
    expect(same.body.detail).toContain("already assigned to otto");
    await api.post(`/hub/tasks/${id}/advance`, {});
    const moved = await api.post(`/hub/tasks/${id}/assign`, { assigneeUserId: "olga", reason: "handover" });
    expect(moved.body).toMatchObject({ status: "in_progress", assigneeUserId: "olga" });
    expectProblem(await api.post(`/hub/tasks/${Bun.randomUUIDv7()}/assign`, { assigneeUserId: "otto", reason: "r" }), 404, "not_found");
  });
});
