// Every minute: personal reminder fan-out and the notification outbox. The canonical
// email schedule becomes logical reminders per recipient and channel (stale ones
// cancelled), due ones get their attempt, pending attempts are sent (email over
// SMTP, messengers over their bot APIs, SMS enqueued at the gateway) and queued SMS
// attempts follow their gateway job. Acting as `system` through the same services
// the routes use; see src/planning/notifications/README.md.
import { dispatchDueReminders, drainOutbox, fanOutReminders, remindersDueAt } from "../planning/notifications/index.ts";
import type { PartnerJob } from "./job.ts";

const BATCH = 200;

export const remindersJob: PartnerJob = {
  name: "reminders",
  schedule: "* * * * *",
  perPartner: true,
  due: remindersDueAt,
  async run(ctx) {
    const fan = await fanOutReminders(ctx);
    let dispatched = 0;
    for (;;) {
      const n = await dispatchDueReminders(ctx, BATCH);
      dispatched += n;
      if (n < BATCH || ctx.signal.aborted) break;
    }
    let drained = 0;
    for (;;) {
      const n = await drainOutbox(ctx, BATCH);
      drained += n;
      if (n < BATCH || ctx.signal.aborted) break;
    }
    return {
      processed: fan.derived + fan.cancelled + dispatched + drained,
      detail: `derived ${fan.derived}, revived ${fan.revived}, cancelled ${fan.cancelled}, dispatched ${dispatched}, attempts changed ${drained}`,
    };
  },
};
