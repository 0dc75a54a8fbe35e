// Hub tasks: a putaway from receiving to its bin, the list of tasks, and the
// transitions of contract §9 with the 409s that name the current state.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { hubTaskEvents } from "./tasks.tables.ts";

const clock = new MutableClock(new Date("2026-06-01T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-tasks", users: { ada: "admin", otto: "operator", vic: "viewer" }, tickMs: 1000 });
afterAll(() => api.close());

let dock = "";
let bin = "";
beforeAll(async () => {
  const site = await api.seed.location({ name: "Warehouse", kind: "site" });
  dock = (await api.seed.location({ name: "Inbound dock", kind: "room", parentId: site.id })).id;
  bin = (await api.seed.location({ name: "Bin A-4", kind: "bin", parentId: site.id })).id;
});

const movementsOf = async (itemId: string) => (await api.get("/movements", { query: { itemId } })).body.items as Array<Record<string, any>>;

describe("a putaway task", () => {
  test("is assigned, started and completed; completion moves the item and its contents with a movement each", async () => {
    const pallet = await api.seed.activeAsset({ name: "Pallet 7", locationId: dock });
    const box = await api.seed.activeAsset({ name: "Box in pallet", locationId: dock });
    expect((await api.post(`/items/${box.id}/move`, { toContainerId: pallet.id })).status).toBe(200);

    const created = await api.post("/hub/tasks", {
      taskType: "putaway",
      title: "Put pallet 7 away",
      urgent: true,
      dueAt: "2026-06-01T12:00:00+02:00",
      locationId: dock,
      targetLocationId: bin,
      lines: [{ itemId: pallet.id }, { quantity: 3 }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const task = created.body;
    expect(created.headers.get("location")).toBe(`/api/assets/hub/tasks/${task.id}?partnerId=hub-tasks`);
    expect(task).toMatchObject({
      taskType: "putaway",
      status: "open",
      urgent: true,
      dueAt: "2026-06-01T10:00:00.000Z",
      assigneeUserId: null,
      lines: [{ itemId: pallet.id }, { modelId: null, quantity: 3 }],
      version: 1,
      createdBy: "ada",
    });

    // An open task is assigned before it starts: advance names the state.
    const early = await api.post(`/hub/tasks/${task.id}/advance`, {});
    expectProblem(early, 409, "state_conflict");
    expect(early.body.detail).toContain("open");
    expect(early.body.currentState).toBe("open");

    const assigned = await api.post(`/hub/tasks/${task.id}/assign`, { assigneeUserId: "otto", reason: "on shift" });
    expect(assigned.body).toMatchObject({ status: "assigned", assigneeUserId: "otto", assignedAt: clock.current.toISOString(), version: 2 });
    const started = await api.as("otto").post(`/hub/tasks/${task.id}/advance`, { reason: "forklift ready" });
    expect(started.body).toMatchObject({ status: "in_progress", startedAt: clock.current.toISOString(), version: 3 });
    // The item has not moved yet.
    expect((await api.get(`/items/${pallet.id}`)).body.locationId).toBe(dock);

    const done = await api.as("otto").post(`/hub/tasks/${task.id}/advance`, { expectedVersion: 3 });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: "completed", completedAt: clock.current.toISOString(), version: 4 });

    const item = (await api.get(`/items/${pallet.id}`)).body;
    expect(item).toMatchObject({ locationId: bin, containerId: null });
    const [moved] = await movementsOf(pallet.id);
    expect(moved).toMatchObject({ kind: "moved", fromLocationId: dock, toLocationId: bin, bizLocationId: bin, actorId: "otto", data: { taskId: task.id } });
    // Its contents followed, with a movement of their own.
    expect((await api.get(`/items/${box.id}`)).body).toMatchObject({ locationId: bin, containerId: pallet.id });
    expect((await movementsOf(box.id))[0]).toMatchObject({ kind: "moved", toLocationId: bin, data: { withContainerId: pallet.id, taskId: task.id } });

    // The history: one actor-attributed event per step, newest first.
    const detail = await api.as("vic").get(`/hub/tasks/${task.id}`);
    expect(detail.body.events.map((e: { kind: string; actorId: string }) => `${e.kind}:${e.actorId}`)).toEqual([
      "completed:otto",
      "started:otto",
      "assigned:ada",
      "created:ada",
    ]);
    expect(detail.body.events[0].data).toMatchObject({ itemsMoved: 1 });
    expect(detail.body.events[2]).toMatchObject({ reason: "on shift", data: { assigneeUserId: "otto", previousAssigneeUserId: null } });

    // Completed is final: advance, cancel and assign name the state.
    for (const [path, body] of [
      [`/hub/tasks/${task.id}/advance`, {}],
      [`/hub/tasks/${task.id}/cancel`, {}],
      [`/hub/tasks/${task.id}/assign`, { assigneeUserId: "ada", reason: "again" }],
    ] as const) {
      const res = await api.post(path, body);
      expectProblem(res, 409, "state_conflict", path);
      expect(res.body.detail, path).toContain("completed");
    }
  });

  test("a picking task whose item is checked out cannot complete, and nothing of the completion is kept", async () => {
    const drill = await api.seed.activeAsset({ name: "Drill", locationId: bin });
    const task = await api.create("/hub/tasks", { taskType: "picking", title: "Pick the drill", targetLocationId: dock, lines: [{ itemId: drill.id }] });
    await api.post(`/hub/tasks/${task.id}/assign`, { assigneeUserId: "otto", reason: "pick list" });
    await api.post(`/hub/tasks/${task.id}/advance`, {});
    await api.seed.checkout({ itemId: drill.id });

    const res = await api.post(`/hub/tasks/${task.id}/advance`, {});
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toContain(drill.id);
    expect(res.body.itemId).toBe(drill.id);
    const after = (await api.get(`/hub/tasks/${task.id}`)).body;
    expect(after).toMatchObject({ status: "in_progress", version: 3 });
    expect((await api.get(`/items/${drill.id}`)).body.locationId).toBe(bin);
  });

  test("an item already at the target location is left as it is", async () => {
    const crate = await api.seed.activeAsset({ name: "Crate", locationId: bin });
    const task = await api.create("/hub/tasks", { taskType: "putaway", title: "Crate", targetLocationId: bin, lines: [{ itemId: crate.id }] });
    await api.post(`/hub/tasks/${task.id}/assign`, { assigneeUserId: "otto", reason: "r" });
    await api.post(`/hub/tasks/${task.id}/advance`, {});
    const before = (await api.get(`/items/${crate.id}`)).body.version;
    expect((await api.post(`/hub/tasks/${task.id}/advance`, {})).body.status).toBe("completed");
    expect((await api.get(`/items/${crate.id}`)).body.version).toBe(before);
    expect((await movementsOf(crate.id)).map((m) => m.kind)).not.toContain("moved");
  });

  test("other task types complete without moving anything", async () => {
    const tool = await api.seed.activeAsset({ name: "Tool", locationId: dock });
    const task = await api.create("/hub/tasks", { taskType: "packing", title: "Pack tool", targetLocationId: bin, lines: [{ itemId: tool.id }] });
    await api.post(`/hub/tasks/${task.id}/assign`, { assigneeUserId: "otto", reason: "r" });
    await api.post(`/hub/tasks/${task.id}/advance`, {});
    expect((await api.post(`/hub/tasks/${task.id}/advance`, {})).body.status).toBe("completed");
    expect((await api.get(`/items/${tool.id}`)).body.locationId).toBe(dock);
  });
});

describe("creating tasks", () => {
  test("putaway and picking need a target; references must exist; an item appears once", async () => {
    const item = await api.seed.activeAsset({ locationId: dock });
    expectFieldError(await api.post("/hub/tasks", { taskType: "putaway", title: "x" }), "/body/targetLocationId");
    expectFieldError(await api.post("/hub/tasks", { taskType: "picking", title: "x", lines: [] }), "/body/targetLocationId");
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "x", locationId: Bun.randomUUIDv7() }), "/body/locationId");
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "x", lines: [{ itemId: Bun.randomUUIDv7() }] }), "/body/lines/0/itemId");
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "x", lines: [{ modelId: Bun.randomUUIDv7(), quantity: 1 }] }), "/body/lines/0/modelId");
    expectFieldError(
      await api.post("/hub/tasks", { taskType: "receiving", title: "x", lines: [{ itemId: item.id }, { quantity: 2 }, { itemId: item.id }] }),
      "/body/lines/2/itemId",
    );
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "x", lines: [{ itemId: item.id, quantity: 2 }] }), "/body/lines/0");
    expectFieldError(await api.post("/hub/tasks", { taskType: "unloading", title: "x" }), "/body/taskType");
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "   " }), "/body/title");
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "x", status: "completed" }), "/body/status");
    expectFieldError(await api.post("/hub/tasks", { taskType: "receiving", title: "x", createdBy: "ada" }), "/body/createdBy");
    const model = await api.seed.model({ categoryId: (await api.seed.category()).id });
    const ok = await api.create("/hub/tasks", { taskType: "receiving", title: "Receive 5", lines: [{ modelId: model.id, quantity: 5 }] });
    expect(ok).toMatchObject({ urgent: false, dueAt: null, locationId: null, targetLocationId: null, lines: [{ modelId: model.id, quantity: 5 }] });
  });

  test("a viewer reads tasks but cannot create or change them", async () => {
    expectProblem(await api.as("vic").post("/hub/tasks", { taskType: "dock", title: "x" }), 403, "capability_denied");
    const task = await api.create("/hub/tasks", { taskType: "dock", title: "Viewer check" });
    expectProblem(await api.as("vic").post(`/hub/tasks/${task.id}/cancel`, {}), 403, "capability_denied");
    expect((await api.as("vic").get("/hub/tasks")).status).toBe(200);
  });
});

describe("cancelling", () => {
  test("open, assigned and in_progress tasks can be cancelled once, with the reason kept", async () => {
    for (const steps of [0, 1, 2]) {
      const task = await api.create("/hub/tasks", { taskType: "quality", title: `Cancel after ${steps}` });
      if (steps >= 1) await api.post(`/hub/tasks/${task.id}/assign`, { assigneeUserId: "otto", reason: "r" });
      if (steps >= 2) await api.post(`/hub/tasks/${task.id}/advance`, {});
      const res = await api.post(`/hub/tasks/${task.id}/cancel`, { reason: "not needed" });
      expect(res.body).toMatchObject({ status: "cancelled", cancelledAt: clock.current.toISOString() });
      const again = await api.post(`/hub/tasks/${task.id}/cancel`, {});
      expectProblem(again, 409, "state_conflict");
      expect(again.body.detail).toContain("cancelled");
      expectProblem(await api.post(`/hub/tasks/${task.id}/advance`, {}), 409, "state_conflict");
      const events = await api.read((q) => q.select().from(hubTaskEvents).where(eq(hubTaskEvents.taskId, task.id)));
      expect(events.find((e) => e.kind === "cancelled")).toMatchObject({ reason: "not needed", actorId: "ada" });
    }
  });

  test("a stale expectedVersion is 409 version_conflict; an unknown task 404", async () => {
    const task = await api.create("/hub/tasks", { taskType: "dock", title: "Versioned" });
    expectProblem(await api.post(`/hub/tasks/${task.id}/cancel`, { expectedVersion: 7 }), 409, "version_conflict");
    expectProblem(await api.post(`/hub/tasks/${Bun.randomUUIDv7()}/advance`, {}), 404, "not_found");
    expectProblem(await api.get(`/hub/tasks/${Bun.randomUUIDv7()}`), 404, "not_found");
  });
});

describe("GET /hub/tasks", () => {
  test("lists under `tasks`, newest change first, with exact totals for q, status and taskType", async () => {
    const other = await partnerKit({ env: api.env, clock, partnerId: "hub-tasks-list", users: { ada: "admin", otto: "operator" }, tickMs: 1000 });
    const make = (taskType: string, title: string) => other.create("/hub/tasks", { taskType, title });
    const a = await make("receiving", "Inbound ACME pallets");
    const b = await make("dock", "Dock door 3");
    const c = await make("receiving", "inbound Globex");
    const d = await make("quality", "Inspect batch");
    await other.post(`/hub/tasks/${b.id}/assign`, { assigneeUserId: "otto", reason: "r" });

    const all = await other.get("/hub/tasks");
    expect(all.body.tasks.map((t: { id: string }) => t.id)).toEqual([b.id, d.id, c.id, a.id]);
    expect(all.body).toMatchObject({ total: 4, nextCursor: null, limit: 50, filters: {} });
    expect(all.body.items).toBeUndefined();

    const inbound = await other.get("/hub/tasks", { query: { q: "  INBOUND " } });
    expect(inbound.body.tasks.map((t: { id: string }) => t.id)).toEqual([c.id, a.id]);
    expect(inbound.body.filters).toEqual({ q: "INBOUND" });
    const byStatus = await other.get("/hub/tasks", { query: { status: "assigned,in_progress" } });
    expect(byStatus.body).toMatchObject({ total: 1, filters: { status: ["assigned", "in_progress"] } });
    const byType = await other.get("/hub/tasks", { query: { taskType: "receiving,quality", status: "open", limit: 2 } });
    expect(byType.body.total).toBe(3);
    expect(byType.body.tasks.map((t: { id: string }) => t.id)).toEqual([d.id, c.id]);
    const next = await other.get("/hub/tasks", { query: { taskType: "receiving,quality", status: "open", limit: 2, cursor: byType.body.nextCursor } });
    expect(next.body.tasks.map((t: { id: string }) => t.id)).toEqual([a.id]);
    expect(next.body.nextCursor).toBeNull();
    // The cursor is bound to its filters.
    expectProblem(await other.get("/hub/tasks", { query: { taskType: "receiving", cursor: byType.body.nextCursor } }), 400, "invalid_cursor");
    expectFieldError(await other.get("/hub/tasks", { query: { status: "done" } }), "/query/status");
    expectFieldError(await other.get("/hub/tasks", { query: { assignee: "otto" } }), "/query/assignee");

    // Partners are separate databases: acme's tasks are not here, and this partner's ids are unknown there.
    expect((await api.get("/hub/tasks", { query: { q: "Inbound ACME" } })).body.total).toBe(0);
    expectProblem(await api.get(`/hub/tasks/${a.id}`), 404, "not_found");
  });

  test("a saved view of the hub-tasks surface is checked by this list's own query schema", async () => {
    const ok = await api.post("/saved-views", { name: "Urgent receiving", surface: "hub-tasks", query: { taskType: ["receiving"], status: "open", q: "pallet" } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expectFieldError(await api.post("/saved-views", { name: "Bad", surface: "hub-tasks", query: { taskType: "unloading" } }), "/body/query/taskType");
  });
});
