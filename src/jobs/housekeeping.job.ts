// Hourly clean-up of a partner database: idempotency keys past retention, expired
// drafts (reads already hide them; this reclaims the rows), old job run records, and the
// invisible rows of CSV import commits that died part-way (their lease ran out).
// Each delete is its own short transaction, so requests interleave with it.
import { lt, min } from "drizzle-orm";
import { idempotencyPurgeDueAt, purgeIdempotencyKeys } from "../platform/idempotency/idempotency.ts";
import { draftsPurgeDueAt, purgeExpiredDrafts } from "../assets/views/index.ts";
import { abandonedImportsDueAt, recoverAbandonedImports } from "../assets/imports/index.ts";
import { jobRuns } from "../platform/jobs/jobs.tables.ts";
import { db, withTx, writer } from "../platform/db/transactions.ts";
import { earliest, type PartnerJob } from "./job.ts";

export const JOB_RUN_RETENTION_MS = 30 * 24 * 3600 * 1000;

export const housekeepingJob: PartnerJob = {
  name: "housekeeping",
  schedule: "0 * * * *",
  perPartner: true,
  // Due when the oldest key, draft or run record reaches its end of retention, or an import commit's lease runs out.
  async due(ctx) {
    // A covering scan of job_runs_job_idx: small, since idle passes record no runs.
    const oldestRun = (await db(ctx).select({ at: min(jobRuns.startedAt) }).from(jobRuns))[0]?.at ?? undefined;
    return earliest(
      await idempotencyPurgeDueAt(ctx),
      await draftsPurgeDueAt(ctx),
      oldestRun === undefined ? null : new Date(Date.parse(oldestRun) + JOB_RUN_RETENTION_MS).toISOString(),
      await abandonedImportsDueAt(ctx),
    );
  },
  async run(ctx) {
    const keys = await withTx(ctx, (ctx) => purgeIdempotencyKeys(ctx));
    const expiredDrafts = await purgeExpiredDrafts(ctx);
    const runsCutoff = new Date(ctx.now.getTime() - JOB_RUN_RETENTION_MS).toISOString();
    const oldRuns = await withTx(ctx, async (ctx) => (await writer(ctx).delete(jobRuns).where(lt(jobRuns.startedAt, runsCutoff))).rowsAffected);
    const imports = await recoverAbandonedImports(ctx);
    return {
      processed: keys + expiredDrafts + oldRuns + imports,
      detail: `idempotency keys ${keys}, drafts ${expiredDrafts}, job runs ${oldRuns}, abandoned import commits ${imports}`,
    };
  },
};
