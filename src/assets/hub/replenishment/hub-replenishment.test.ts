// Replenishment: a rule keeps a model's stock at a location between min and max.
// Under the minimum, evaluating it raises one replenishment task for max − stock,
// and never a second while that one is open (the job: src/jobs/replenishment.job.test.ts).
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { hubTasks } from "../tasks/tasks.tables.ts";

const clock = new MutableClock(new Date("2026-06-08T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-repl", users: { ada: "admin", otto: "operator", vic: "viewer" }, tickMs: 1000 });
afterAll(() => api.close());

let store = "";
let shelf = "";
let elsewhere = "";
let batteries = "";
let cables = "";
beforeAll(async () => {
  store = (await api.seed.location({ name: "Store", kind: "room" })).id;
  shelf = (await api.seed.location({ name: "Shelf 2", kind: "bin", parentId: store })).id;
  elsewhere = (await api.seed.location({ name: "Elsewhere", kind: "room" })).id;
  const category = (await api.seed.category()).id;
  batteries = (await api.seed.model({ categoryId: category, name: "AA batteries" })).id;
  cables = (await api.seed.model({ categoryId: category, name: "USB cable" })).id;
  // Counted for a rule on the store: a box of 12 on the shelf (a sub-location) and a serialised one in the store.
  await api.seed.activeAsset({ modelId: batteries, locationId: shelf, tracking: "quantity", quantity: 12 });
  await api.seed.activeAsset({ modelId: batteries, locationId: store });
  // Not counted there: a planned box, a box elsewhere, another model.
  await api.seed.asset({ modelId: batteries, locationId: store, tracking: "quantity", quantity: 100 });
  await api.seed.activeAsset({ modelId: batteries, locationId: elsewhere, tracking: "quantity", quantity: 100 });
  await api.seed.activeAsset({ modelId: cables, locationId: store, tracking: "quantity", quantity: 100 });
});

const evaluate = (ruleId: string) => api.post(`/hub/replenishment-rules/${ruleId}/evaluate`, {});

describe("replenishment rules", () => {
  test("stock counts active items of the model in the location's subtree, quantity-tracked by quantity; under min a task asks for max − stock", async () => {
    const rule = await api.create("/hub/replenishment-rules", { locationId: store, modelId: batteries, min: 20, max: 50, label: "AA batteries" });
    expect(rule).toMatchObject({ locationId: store, modelId: batteries, min: 20, max: 50, label: "AA batteries", version: 1, createdBy: "ada" });


    const first = await api.as("otto").post(`/hub/replenishment-rules/${rule.id}/evaluate`, {});
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ ruleId: rule.id, stock: 13, min: 20, max: 50, belowMinimum: true, created: true, evaluatedAt: clock.current.toISOString() });
    expect(first.body.task).toMatchObject({
      taskType: "replenishment",
      status: "open",
      title: "Replenish AA batteries (37)",
      urgent: false,
      locationId: store,
      targetLocationId: store,
      lines: [{ modelId: batteries, quantity: 37 }],
      replenishmentRuleId: rule.id,
      createdBy: "otto",
    });

    // Idempotent: evaluating again (even with less stock) returns the open task.
    const again = await evaluate(rule.id);
    expect(again.body).toMatchObject({ created: false, stock: 13, task: { id: first.body.task.id } });
    const open = await api.read((q) => q.select().from(hubTasks).where(and(eq(hubTasks.replenishmentRuleId, rule.id))));
    expect(open).toHaveLength(1);

    // Once that task is done, the next shortfall raises a new one.
    const taskId = first.body.task.id;
    await api.post(`/hub/tasks/${taskId}/assign`, { assigneeUserId: "otto", reason: "restock" });
    await api.post(`/hub/tasks/${taskId}/advance`, {});
    await api.post(`/hub/tasks/${taskId}/advance`, {});
    const next = await evaluate(rule.id);
    expect(next.body).toMatchObject({ created: true, stock: 13 });
    expect(next.body.task.id).not.toBe(taskId);
  });

  test("at or above the minimum nothing is raised; at zero stock the task is urgent", async () => {
    const full = await api.create("/hub/replenishment-rules", { locationId: elsewhere, modelId: batteries, min: 100, max: 200 });
    expect((await evaluate(full.id)).body).toMatchObject({ stock: 100, belowMinimum: false, created: false, task: null });
    const empty = await api.create("/hub/replenishment-rules", { locationId: shelf, modelId: cables, min: 1, max: 10 });
    const res = await evaluate(empty.id);
    expect(res.body).toMatchObject({ stock: 0, created: true, task: { urgent: true, title: "Replenish 10 up to 10", lines: [{ modelId: cables, quantity: 10 }] } });
  });

  test("a cancelled task frees the rule to raise another", async () => {
    const rule = await api.create("/hub/replenishment-rules", { locationId: store, modelId: cables, min: 500, max: 600 });
    const first = (await evaluate(rule.id)).body.task;
    await api.post(`/hub/tasks/${first.id}/cancel`, { reason: "ordered by phone" });
    const second = await evaluate(rule.id);
    expect(second.body).toMatchObject({ created: true, stock: 100, task: { lines: [{ quantity: 500 }] } });
  });

  test("validation: max ≥ min, one rule per location and model, existing references", async () => {
    const loc = (await api.seed.location({ name: "Rule checks", kind: "room" })).id;
    expectFieldError(await api.post("/hub/replenishment-rules", { locationId: loc, modelId: batteries, min: 10, max: 5 }), "/body/max");
    expectFieldError(await api.post("/hub/replenishment-rules", { locationId: loc, modelId: batteries, min: -1, max: 5 }), "/body/min");
    expectFieldError(await api.post("/hub/replenishment-rules", { locationId: loc, modelId: batteries, min: 0, max: 0 }), "/body/max");
    expectFieldError(await api.post("/hub/replenishment-rules", { locationId: loc, modelId: batteries, min: 1.5, max: 5 }), "/body/min");
    expectFieldError(await api.post("/hub/replenishment-rules", { locationId: Bun.randomUUIDv7(), modelId: batteries, min: 1, max: 5 }), "/body/locationId");
    expectFieldError(await api.post("/hub/replenishment-rules", { locationId: loc, modelId: Bun.randomUUIDv7(), min: 1, max: 5 }), "/body/modelId");
    const first = await api.create("/hub/replenishment-rules", { locationId: loc, modelId: batteries, min: 5, max: 5 });
    const dup = await api.post("/hub/replenishment-rules", { locationId: loc, modelId: batteries, min: 1, max: 9 });
    expectProblem(dup, 409, "duplicate");
    expect(dup.body.existingRuleId).toBe(first.id);
    expectProblem(await evaluate(Bun.randomUUIDv7()), 404, "not_found");
    expectFieldError(await api.post(`/hub/replenishment-rules/${first.id}/evaluate`, { force: true }), "/body/force");
    expectProblem(await api.as("vic").post(`/hub/replenishment-rules/${first.id}/evaluate`, {}), 403, "capability_denied");
  });
});
