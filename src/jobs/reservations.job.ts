// Every minute: reservations whose window ended unstarted are cancelled as expired,
// releasing the item's `reserved` availability. Batches of 500, one transaction each.
import { expireReservations } from "../assets/custody/custody.service.ts";
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
    return { processed: total, detail: `expired reservations ${total}` };
  },
};
