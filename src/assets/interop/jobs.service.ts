// Background exports. POST /interoperability/jobs queues a row; the
// `interop-exports` partner job (src/jobs/interop-exports.job.ts, every minute)
// runs queued jobs one by one, encrypts each result with the envelope scheme
// (platform/crypto/envelope.ts) into the content store, and records the header
// and digest here. Responses never show the content key or any storage detail.
import { and, asc, eq, inArray, lt, or } from "drizzle-orm";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { newRecordMeta } from "../../platform/tenancy/tenant-context.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { decryptStream, encryptStream } from "../../platform/crypto/envelope.ts";
import { interopJobs } from "./interop.tables.ts";
import type { CreateInteropJob, InteropJobDto } from "./jobs.schemas.ts";
import { checkExportBounds, exportEpcis } from "./epcis.service.ts";
import { snapshotStream, type SnapshotCounts } from "./snapshot.service.ts";
import type { ExportEpcisQuery } from "./epcis.schemas.ts";
import { ContentStoreError } from "../../platform/blobs/content-store.ts";

type JobRow = typeof interopJobs.$inferSelect;

/** A job still `running` this long after it started was interrupted (restart): it is run again. */
export const STALE_RUNNING_MS = 15 * 60_000;
/** Jobs one pass of the runner takes on, oldest first. */
const PER_PASS = 10;

export function toInteropJobDto(r: JobRow): InteropJobDto {
  return {
    id: r.id,
    format: r.format,
    state: r.state,
    parameters: r.parameters,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    failure: r.failure,
    result:
      r.state === "succeeded" && r.resultSha256 !== null && r.resultBytes !== null
        ? { contentType: "application/json", bytes: r.resultBytes, sha256: r.resultSha256, count: r.resultCount ?? 0 }
        : null,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

/** POST /interoperability/jobs: checks an EPCIS window's bounds now (400), then queues. */
export async function createInteropJob(ctx: TenantCtx, input: CreateInteropJob): Promise<InteropJobDto> {
  let parameters: JobRow["parameters"] = {};
  if (input.format === "epcis") {
    const { format: _f, ...window } = input;
    await checkExportBounds(ctx, window, "body");
    // Absent filters are left out (as JSON leaves them out).
    parameters = Object.fromEntries(Object.entries(window).filter(([, v]) => v !== undefined)) as ExportEpcisQuery;
  }
  const row: JobRow = {
    ...newRecordMeta(ctx),
    format: input.format,
    state: "queued",
    parameters,
    startedAt: null,
    finishedAt: null,
    failure: null,
    resultKey: null,
    resultHeader: null,
    resultSha256: null,
    resultBytes: null,
    resultCount: null,
  };
  await withTx(ctx, async (ctx) => {
    await writer(ctx).insert(interopJobs).values(row);
  });
  return toInteropJobDto(row);
}

async function loadJob(ctx: TenantCtx, id: string): Promise<JobRow> {
  const row = (await db(ctx).select().from(interopJobs).where(eq(interopJobs.id, id)))[0];
  if (!row) throw notFound("interoperability job");
  return row;
}

export async function getInteropJob(ctx: TenantCtx, id: string): Promise<InteropJobDto> {
  return toInteropJobDto(await loadJob(ctx, id));
}

const contentKey = (ctx: TenantCtx, jobId: string) => `interop/${ctx.partnerId}/${jobId}`;
/** Binds a ciphertext to its partner and job, so a blob cannot be replayed under another record. */
const aadOf = (ctx: TenantCtx, jobId: string) => `${ctx.partnerId}:interop-job:${jobId}`;

/** GET /interoperability/jobs/{id}/result: the decrypted document, streamed. 409 until the job succeeded. */
export async function openInteropJobResult(ctx: TenantCtx, id: string): Promise<{ job: InteropJobDto; body: ReadableStream<Uint8Array> }> {
  const row = await loadJob(ctx, id);
  if (row.state !== "succeeded" || !row.resultKey || !row.resultHeader) {
    throw new AppError("state_conflict", `the job is ${row.state}; its result can be downloaded once it has succeeded`, { extras: { state: row.state } });
  }
  const blob = await ctx.deps.contentStore.get(row.resultKey);
  if (!blob) throw new AppError("internal_error", "the job's result is missing from the content store");
  const body = decryptStream(ctx.deps.config.dataKek, row.resultHeader, blob, { aad: aadOf(ctx, row.id) });
  return { job: toInteropJobDto(row), body };
}

async function update(ctx: TenantCtx, row: JobRow, patch: Partial<JobRow>): Promise<JobRow> {
  const next = { ...row, ...patch, version: row.version + 1, updatedAt: ctx.nowIso };
  await withTx(ctx, async (ctx) => {
    await writer(ctx)
      .update(interopJobs)
      .set({ ...patch, version: next.version, updatedAt: next.updatedAt })
      .where(eq(interopJobs.id, row.id));
  });
  return next;
}

/** The plain-text document of one job, as a byte stream, and how many records it holds once read. */
async function produce(ctx: TenantCtx, row: JobRow): Promise<{ stream: ReadableStream<Uint8Array>; counts: SnapshotCounts }> {
  const counts: SnapshotCounts = { records: 0 };
  if (row.format === "snapshot") {
    return { stream: snapshotStream(ctx, { generatedBy: row.createdBy, jobId: row.id }, () => undefined, counts), counts };
  }
  // An EPCIS job's parameters are the window it was created with (createInteropJob).
  const doc = await exportEpcis(ctx, row.parameters as ExportEpcisQuery, "body");
  counts.records = doc.epcisBody.eventList.length;
  const bytes = new TextEncoder().encode(JSON.stringify(doc));
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
  return { stream, counts };
}

/** Runs one queued job to the end: succeeded with an encrypted result, or failed with a reason. */
export async function runInteropJob(ctx: TenantCtx, queued: JobRow): Promise<JobRow> {
  let row = await update(ctx, queued, { state: "running", startedAt: ctx.nowIso, failure: null });
  const key = contentKey(ctx, row.id);
  try {
    const { stream, counts } = await produce(ctx, row);
    const enc = encryptStream(ctx.deps.config.dataKek, stream, { aad: aadOf(ctx, row.id) });
    await ctx.deps.contentStore.put(key, enc.ciphertext);
    const done = await enc.done;
    row = await update(ctx, row, {
      state: "succeeded",
      finishedAt: ctx.deps.clock.now().toISOString(),
      resultKey: key,
      resultHeader: done.header,
      resultSha256: done.sha256,
      resultBytes: done.size,
      resultCount: counts.records,
    });
  } catch (err) {
    if (err instanceof ContentStoreError) {
      // The store is unavailable, not the export at fault: a failed put stored nothing, and
      // the job goes back to the queue for the next pass instead of failing for good.
      ctx.deps.log.warn("interop export deferred: content store unavailable", { requestId: ctx.requestId, jobId: row.id, op: err.op, code: err.code });
      return update(ctx, row, { state: "queued", startedAt: null });
    }
    await ctx.deps.contentStore.delete(key).catch(() => undefined);
    const reason = err instanceof AppError ? err.message : "the export failed; it can be requested again";
    row = await update(ctx, row, { state: "failed", finishedAt: ctx.deps.clock.now().toISOString(), failure: reason });
  }
  return row;
}

/** The export runner's probe (reads only, interop_jobs_state_idx): now when a job is queued, else when the oldest running one becomes stale; null when neither. */
export async function interopJobsDueAt(ctx: TenantCtx): Promise<string | null> {
  const queued = await db(ctx).select({ id: interopJobs.id }).from(interopJobs).where(eq(interopJobs.state, "queued")).limit(1);
  if (queued.length > 0) return ctx.nowIso;
  const running = await db(ctx).select({ startedAt: interopJobs.startedAt }).from(interopJobs).where(eq(interopJobs.state, "running"));
  let earliest: string | null = null;
  for (const r of running) {
    // A running job without a start time is picked up by no pass (lt on null); it is not work.
    if (r.startedAt === null) continue;
    const at = new Date(Date.parse(r.startedAt) + STALE_RUNNING_MS).toISOString();
    if (earliest === null || at < earliest) earliest = at;
  }
  return earliest;
}

/** One pass of the runner: queued jobs, and jobs left `running` by an interrupted pass, oldest first. */
export async function runQueuedInteropJobs(ctx: TenantCtx): Promise<{ processed: number; failed: number }> {
  const stale = new Date(ctx.now.getTime() - STALE_RUNNING_MS).toISOString();
  const due = await db(ctx)
    .select()
    .from(interopJobs)
    .where(or(eq(interopJobs.state, "queued"), and(inArray(interopJobs.state, ["running"]), lt(interopJobs.startedAt, stale))))
    .orderBy(asc(interopJobs.createdAt), asc(interopJobs.id))
    .limit(PER_PASS);
  let failed = 0;
  let processed = 0;
  for (const job of due) {
    const done = await runInteropJob(ctx, job);
    // Requeued: the content store is down, and the rest would meet it too; they wait for the next pass.
    if (done.state === "queued") break;
    processed++;
    if (done.state === "failed") failed++;
  }
  return { processed, failed };
}
