// Every minute: evidence waiting for its automatic scan goes through the stored-file
// scan pass (platform/stored-files/scan.ts): decrypted from the content store, sniffed
// against its declared type and, when CLAMD_HOST is set, streamed to clamd (INSTREAM).
// A finding quarantines, a scanner error marks `failed`; a file with neither stays
// pending for a reviewer. Batches of 20, acting as `system`.
import { scanPendingEvidence } from "../assets/evidence/index.ts";
import type { PartnerJob } from "./job.ts";

const BATCH = 20;

export const evidenceScanJob: PartnerJob = {
  // The contract's CLI name (`npm run jobs -- scans`). Planning artifacts are not in this pass: their table has
  // no `scanned_at` queue column (a migration this change may not make), so they are sniffed at upload only.
  name: "scans",
  schedule: "* * * * *",
  perPartner: true,
  async run(ctx) {
    let scanned = 0;
    for (;;) {
      const n = await scanPendingEvidence(ctx, BATCH);
      scanned += n;
      if (n < BATCH || ctx.signal.aborted) break;
    }
    return { processed: scanned, detail: `evidence scanned ${scanned}` };
  },
};
