// Every minute: reservations whose window ended unstarted are cancelled as expired,
// releasing the item's `reserved` availability; items whose reservation window has
// started become `reserved`. Batches of 500, one transaction each, acting as `system`
// through the same custody services requests use.
import { expireReservations, reservationsDueAt, startReservationWindows } from "../assets/custody/index.ts";
import type { PartnerJob } from "./job.ts";

const BATCH = 500;

export const reservationsJob: PartnerJob = {
  name: "reservations",
  schedule: "* * * * *",
  perPartner: true,
  due: reservationsDueAt,
  async run(ctx) {
    let expired = 0;
    for (;;) {
      const n = await expireReservations(ctx, BATCH);
      expired += n;
      if (n < BATCH || ctx.signal.aborted) break;
    }
    let started = 0;
    for (;;) {
      const n = await startReservationWindows(ctx, BATCH);
      started += n;
      if (n < BATCH || ctx.signal.aborted) break;
    }
    return { processed: expired + started, detail: `expired reservations ${expired}, windows started ${started}` };
  },
};
