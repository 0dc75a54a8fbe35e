// Every minute: materialise alerts (src/assets/alerts): one per due condition
// (fingerprint-deduplicated, so a rerun creates nothing new), and resolve the
// alerts whose condition cleared. Acts as `system`.
import { alertsDueAt, materialiseAlerts } from "../assets/alerts/index.ts";
import type { PartnerJob } from "./job.ts";

export const alertsJob: PartnerJob = {
  name: "alerts",
  schedule: "* * * * *",
  perPartner: true,
  due: alertsDueAt,
  async run(ctx) {
    const { raised, resolved } = await materialiseAlerts(ctx);
    return { processed: raised + resolved, detail: `alerts raised ${raised}, resolved ${resolved}` };
  },
};
