// Every minute (the scheduler's finest cadence): deliver webhook events from the
// outbox (src/assets/webhooks/webhooks.delivery.ts). An event therefore reaches its
// endpoints within about a minute of its commit, and a retry is made at the first
// pass after it is due: the 5 s first retry becomes "the next minute".
import { deliverWebhooks, webhooksDueAt } from "../assets/webhooks/index.ts";
import type { PartnerJob } from "./job.ts";

export const webhookDeliveryJob: PartnerJob = {
  name: "webhooks",
  schedule: "* * * * *",
  perPartner: true,
  due: webhooksDueAt,
  async run(ctx) {
    const r = await deliverWebhooks(ctx, ctx.signal);
    return {
      processed: r.attempted + r.purged,
      detail:
        `deliveries queued ${r.fannedOut}, attempted ${r.attempted}, succeeded ${r.succeeded}, purged ${r.purged}` +
        (r.keyConfigured ? "" : "; AMS_WEBHOOK_ENCRYPTION_KEY not configured, nothing sent"),
    };
  },
};
