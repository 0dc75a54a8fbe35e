// Every 5 minutes the replenishment job evaluates each hub replenishment rule as
// `system`, through the same evaluateRule the evaluate route uses.
import { test, expect, afterAll, describe } from "bun:test";
import { createTestEnv, MutableClock } from "../../test/harness.ts";
import { partnerKit } from "../../test/kit.ts";
import { runJob } from "./run-job.ts";
import { replenishmentJob } from "./replenishment.job.ts";
import { createJobRegistry } from "./registry.ts";
import { evaluateReplenishmentRules } from "../assets/hub/replenishment/replenishment.service.ts";

const clock = new MutableClock(new Date("2026-06-08T08:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

describe("the replenishment job", () => {
  test("is registered every 5 minutes and raises tasks as `system` through the same evaluation, once per rule", async () => {
    expect(createJobRegistry().get("replenishment")).toMatchObject({ schedule: "*/5 * * * *", perPartner: true });
    const hub = await partnerKit({ env, clock, partnerId: "hub-repl-job", users: { ada: "admin" } });
    const category = (await hub.seed.category()).id;
    const rules: string[] = [];
    for (let i = 0; i < 3; i++) {
      const loc = (await hub.seed.location({ name: `Bin ${i}`, kind: "bin" })).id;
      const model = (await hub.seed.model({ categoryId: category })).id;
      if (i === 2) await hub.seed.activeAsset({ modelId: model, locationId: loc, tracking: "quantity", quantity: 9 });
      rules.push((await hub.create("/hub/replenishment-rules", { locationId: loc, modelId: model, min: 5, max: 8 })).id);
    }
    let [outcome] = await runJob(env.deps, replenishmentJob, { partnerId: "hub-repl-job" });
    expect(outcome).toMatchObject({ status: "succeeded", processed: 2, detail: "rules evaluated 3, replenishment tasks raised 2" });
    const raised = await hub.get("/hub/tasks", { query: { taskType: "replenishment" } });
    expect(raised.body.total).toBe(2);
    for (const t of raised.body.tasks) expect(t).toMatchObject({ createdBy: "system", status: "open", lines: [{ quantity: 8 }] });
    expect(new Set(raised.body.tasks.map((t: { replenishmentRuleId: string }) => t.replenishmentRuleId))).toEqual(new Set(rules.slice(0, 2)));
    const history = (await hub.get(`/hub/tasks/${raised.body.tasks[0].id}`)).body.events;
    expect(history).toMatchObject([{ kind: "created", actorId: "system" }]);

    // The next pass finds every rule already served: its probe (the same reads) says idle, so it takes no lease and records nothing.
    [outcome] = await runJob(env.deps, replenishmentJob, { partnerId: "hub-repl-job" });
    expect(outcome).toMatchObject({ status: "idle", processed: 0 });
    expect((await hub.get("/hub/summary")).body.replenishment).toBe(2);
  });

  test("batches walk the rules in id order, each rule once", async () => {
    const hub = await partnerKit({ env, clock, partnerId: "hub-repl-batches", users: { ada: "admin" } });
    const category = (await hub.seed.category()).id;
    const loc = (await hub.seed.location({ name: "Bin", kind: "bin" })).id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const model = (await hub.seed.model({ categoryId: category })).id;
      ids.push((await hub.create("/hub/replenishment-rules", { locationId: loc, modelId: model, min: 1, max: 2 })).id);
    }
    const seen: number[] = [];
    let after = "";
    for (;;) {
      const batch = await hub.inTenant((ctx) => evaluateReplenishmentRules(ctx, after, 2));
      seen.push(batch.evaluated);
      if (batch.lastId === null) break;
      after = batch.lastId;
    }
    expect(seen).toEqual([2, 2, 1, 0]);
    expect(after).toBe([...ids].sort().at(-1)!);
    expect((await hub.get("/hub/tasks", { query: { taskType: "replenishment" } })).body.total).toBe(5);
  });
});
