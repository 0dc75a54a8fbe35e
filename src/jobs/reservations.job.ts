// Every minute: reservations whose window ended unstarted are cancelled as expired,
// releasing the item's `reserved` availability; items whose reservation window has
// started become `reserved`. Batches of 500, one transaction each.
import { expireReservations, startReservationWindows } from "../assets/custody/custody.service.ts";
import type { PartnerJob } from "./registry.ts";

const BATCH = 500;

export const reservationsJob: PartnerJob = {
  name: "reservations",
  schedule: "* * * * *",
  perPartner: true,
  async run(ctx) {
    const nowIso = ctx.now.toISOString();
    let total = 0;
    for (;;) {
      const n = await ctx.withTx((tx) => expireReservations(tx, nowIso, ctx.deps.newId, BATCH));
      total += n;
      if (n < BATCH || ctx.signal.aborted) break;
    }
    // One pass: items whose reservation window has started now read `reserved`.
    const started = await ctx.withTx((tx) => startReservationWindows(tx, nowIso, BATCH));
    return { processed: total + started, detail: `expired reservations ${total}, windows started ${started}` };
  },
};
