// Every minute: evidence and planning artifacts waiting for their automatic scan go
// through the stored-file scan pass (platform/stored-files/scan.ts): decrypted from the
// content store, sniffed against the declared type and, when CLAMD_HOST is set, streamed
// to clamd (INSTREAM). A finding quarantines, a scanner error marks `failed`; a file with
// neither stays pending for a reviewer. Batches of 20, acting as `system`.
import { evidenceScanDueAt, scanPendingEvidence } from "../assets/evidence/index.ts";
import { artifactScanDueAt, scanPendingArtifacts } from "../planning/artifacts/index.ts";
import { earliest, type PartnerJob, type PartnerJobCtx } from "./job.ts";

const BATCH = 20;

export const evidenceScanJob: PartnerJob = {
  // The contract's CLI name (`npm run jobs -- scans`).
  name: "scans",
  schedule: "* * * * *",
  perPartner: true,
  due: async (ctx) => earliest(await evidenceScanDueAt(ctx), await artifactScanDueAt(ctx)),
  async run(ctx) {
    const drain = async (batch: (ctx: PartnerJobCtx, limit: number) => Promise<number>): Promise<number> => {
      let scanned = 0;
      for (;;) {
        const n = await batch(ctx, BATCH);
        scanned += n;
        if (n < BATCH || ctx.signal.aborted) return scanned;
      }
    };
    const evidence = await drain(scanPendingEvidence);
    const artifacts = ctx.signal.aborted ? 0 : await drain(scanPendingArtifacts);
    return { processed: evidence + artifacts, detail: `evidence scanned ${evidence}, artifacts scanned ${artifacts}` };
  },
};
