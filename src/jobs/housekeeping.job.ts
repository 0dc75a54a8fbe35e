// Hourly clean-up of a partner database: idempotency keys past retention, expired
// drafts (reads already hide them; this reclaims the rows) and old job run records.
// Each delete is its own short transaction, so requests interleave with it.
import { lt } from "drizzle-orm";
import { purgeIdempotencyKeys } from "../platform/idempotency/idempotency.ts";
import { purgeExpiredDrafts } from "../assets/views/index.ts";
import { jobRuns } from "../platform/jobs/jobs.tables.ts";
import { withTx, writer } from "../platform/db/transactions.ts";
import type { PartnerJob } from "./job.ts";

export const JOB_RUN_RETENTION_MS = 30 * 24 * 3600 * 1000;

export const housekeepingJob: PartnerJob = {
  name: "housekeeping",
  schedule: "0 * * * *",
  perPartner: true,
  async run(ctx) {
    const keys = await withTx(ctx, (ctx) => purgeIdempotencyKeys(ctx));
    const expiredDrafts = await purgeExpiredDrafts(ctx);
    const runsCutoff = new Date(ctx.now.getTime() - JOB_RUN_RETENTION_MS).toISOString();
    const oldRuns = await withTx(ctx, async (ctx) => (await writer(ctx).delete(jobRuns).where(lt(jobRuns.startedAt, runsCutoff))).rowsAffected);
    return {
      processed: keys + expiredDrafts + oldRuns,
      detail: `idempotency keys ${keys}, drafts ${expiredDrafts}, job runs ${oldRuns}`,
    };
  },
};
