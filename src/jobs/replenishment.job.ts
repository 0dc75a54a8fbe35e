// Every 5 minutes: each replenishment rule is evaluated and, where its stock is
// under the minimum and it has no open replenishment task, one is raised for
// max − stock. Batches of 200 rules, one transaction each, acting as `system`
// through the same hub service the evaluate route uses (evaluateRule).
import { evaluateReplenishmentRules, replenishmentDueAt } from "../assets/hub/index.ts";
import type { PartnerJob } from "./job.ts";

const BATCH = 200;

export const replenishmentJob: PartnerJob = {
  name: "replenishment",
  schedule: "*/5 * * * *",
  perPartner: true,
  due: replenishmentDueAt,
  async run(ctx) {
    let evaluated = 0;
    let created = 0;
    let after = "";
    for (;;) {
      const batch = await evaluateReplenishmentRules(ctx, after, BATCH);
      evaluated += batch.evaluated;
      created += batch.created;
      if (batch.lastId === null || batch.evaluated < BATCH || ctx.signal.aborted) break;
      after = batch.lastId;
    }
    return { processed: created, detail: `rules evaluated ${evaluated}, replenishment tasks raised ${created}` };
  },
};
