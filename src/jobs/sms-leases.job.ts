// Every minute: the SMS gateway's time rules for each partner — unconfirmed
// leases past expiry return to the queue, sends with no report within the
// delivery window become sent_unconfirmed, retry_wait jobs whose backoff ended
// are pending again, and queued jobs past their deadline expire.
import { smsSweepDueAt, sweepSmsQueue } from "../planning/sms-gateway/index.ts";
import type { PartnerJob } from "./job.ts";

export const smsLeasesJob: PartnerJob = {
  name: "sms-leases",
  schedule: "* * * * *",
  perPartner: true,
  due: smsSweepDueAt,
  async run(ctx) {
    const c = await sweepSmsQueue(ctx, { signal: ctx.signal });
    return {
      processed: c.leasesRequeued + c.unconfirmed + c.retriesDue + c.expired,
      detail: `leases requeued ${c.leasesRequeued}, sent_unconfirmed ${c.unconfirmed}, retries due ${c.retriesDue}, expired ${c.expired}`,
    };
  },
};
