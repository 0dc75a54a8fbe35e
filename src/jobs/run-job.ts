// The one catch-all wrapper around every job run. Per partner it takes the job's
// lease in that partner's database (so two service instances, or the scheduler and
// the CLI, never run the same partner's job at once), runs the job, releases the
// lease and records the outcome in job_runs. Whatever the job does, the wrapper
// resolves: a failure is logged and recorded, never thrown.
import { and, eq, lte } from "drizzle-orm";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type { Deps } from "../platform/deps.ts";
import { type Querier } from "../platform/db/transactions.ts";
import { jobLeases, jobRuns } from "../platform/jobs/jobs.tables.ts";
import type { TenantHandle } from "../platform/tenancy/tenancy.ts";
import { systemContext } from "../platform/tenancy/tenant-context.ts";
import type { GlobalJob, JobDefinition, JobResult, PartnerJob } from "./job.ts";
import { errorFacts } from "../platform/errors/app-error.ts";
import { unavailableCause } from "../platform/db/unavailable.ts";
import { IdleMemo } from "./idle-memo.ts";
import { createJobRegistry } from "./registry.ts";

/** `idle`: the job's probe found nothing due; no lease was taken and no job_runs row written. */
export type RunStatus = "succeeded" | "failed" | "skipped" | "idle";

export interface JobOutcome {
  job: string;
  /** null for a job that does not run per partner. */
  partnerId: string | null;
  runId: string;
  status: RunStatus;
  processed: number;
  detail?: string;
  startedAt: string;
  finishedAt: string;
}

export interface RunJobOptions {
  /** One partner; omitted → every registered partner (per-partner jobs only). */
  partnerId?: string;
  /** Lease holder id; defaults to this process. Tests pass two to play two instances. */
  holder?: string;
  /**
   * The other jobs whose probes to ask, and remember when idle, while a partner is freshly
   * opened for this one, so a process's first pass opens each idle partner once rather than
   * once per job (default: every registered job).
   */
  siblings?: readonly JobDefinition[];
  signal?: AbortSignal;
}

export const DEFAULT_LEASE_SECONDS = 600;
const DETAIL_MAX = 500;

/**
 * Where a pid means one process: the host name and, on Linux, the pid namespace (two
 * containers may share a host name, never a pid namespace). Holders with the same
 * scope can tell whether each other's process still exists.
 */
const PROCESS_SCOPE = (() => {
  try {
    return `${hostname()}/${readlinkSync("/proc/self/ns/pid").replace(/\D/g, "")}`;
  } catch {
    return hostname();
  }
})();

/** Identifies this process as a lease holder: its scope, pid and a random part (pids repeat). */
export const processHolderId = `${PROCESS_SCOPE}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;

/**
 * True when `holder` names a process of this scope (host and pid namespace) that no
 * longer exists: it was killed (SIGKILL, OOM) while holding a lease, which would
 * otherwise keep that partner's job from running until the lease expires (10 minutes
 * by default; a webhook outage after every crash). A pid that exists, even reused by
 * another process, and any holder of another scope or another format, count as alive:
 * their leases expire as before.
 */
export function isDeadLocalHolder(holder: string): boolean {
  const parts = holder.split(":");
  if (parts.length < 3) return false;
  const pid = Number(parts[parts.length - 2]);
  if (parts.slice(0, -2).join(":") !== PROCESS_SCOPE || !Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: it exists but belongs to someone else; only ESRCH says it is gone.
    return (err as { code?: string }).code === "ESRCH";
  }
}

/** Runs one job once: for one partner, every partner, or globally. Never rejects. */
export async function runJob(deps: Deps, job: JobDefinition, opts: RunJobOptions = {}): Promise<JobOutcome[]> {
  const signal = opts.signal ?? new AbortController().signal;
  const holder = opts.holder ?? processHolderId;
  if (!job.perPartner) return [await runGlobal(deps, job, signal)];
  let partnerIds: string[];
  try {
    partnerIds = opts.partnerId ? [opts.partnerId] : (await deps.tenancy.listPartners()).map((p) => p.id);
  } catch (err) {
    deps.log.error("job could not list partners", { job: job.name, ...errorFacts(err) });
    const at = deps.clock.now().toISOString();
    return [{ job: job.name, partnerId: null, runId: deps.newId(), status: "failed", processed: 0, detail: "could not list partners", startedAt: at, finishedAt: at }];
  }
  const outcomes: JobOutcome[] = [];
  const siblings = (opts.siblings ?? createJobRegistry().list()).filter((j): j is PartnerJob => j.perPartner && j.due !== undefined && j.name !== job.name);
  // One partner at a time: bounded memory and open handles, whatever the partner count.
  for (const partnerId of partnerIds) {
    if (signal.aborted) break;
    outcomes.push(await runForPartner(deps, job, partnerId, holder, signal, siblings));
  }
  return outcomes;
}

async function runGlobal(deps: Deps, job: GlobalJob, signal: AbortSignal): Promise<JobOutcome> {
  const runId = deps.newId();
  const now = deps.clock.now();
  const startedAt = now.toISOString();
  const finish = (status: RunStatus, processed: number, detail?: string): JobOutcome => ({
    job: job.name, partnerId: null, runId, status, processed, detail, startedAt, finishedAt: deps.clock.now().toISOString(),
  });
  try {
    const r = await job.run({ deps, job: job.name, runId, now, log: deps.log, signal });
    const outcome = finish("succeeded", r.processed, r.detail);
    logSucceeded(deps, { job: job.name, runId, processed: r.processed });
    return outcome;
  } catch (err) {
    deps.log.error("job failed", { job: job.name, runId, ...errorFacts(err) });
    return finish("failed", 0, failureDetail(err));
  }
}

/** One memo of idle partners per tenancy (i.e. per process and set of partner databases). */
const idleMemos = new WeakMap<object, IdleMemo>();

/** The idle memo of these deps' partner databases (the bench and tests read its `skipped` count). */
export function idleMemoOf(deps: Deps): IdleMemo {
  let memo = idleMemos.get(deps.tenancy);
  if (!memo) {
    const tenancy = deps.tenancy;
    memo = new IdleMemo((partnerId) => tenancy.urlFor(partnerId));
    idleMemos.set(deps.tenancy, memo);
  }
  return memo;
}

async function runForPartner(deps: Deps, job: PartnerJob, partnerId: string, holder: string, signal: AbortSignal, siblings: readonly PartnerJob[] = []): Promise<JobOutcome> {
  const runId = deps.newId();
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const base = { job: job.name, partnerId, runId, startedAt: nowIso };
  const memo = job.due ? idleMemoOf(deps) : undefined;
  // Idle at the last pass, nothing written since and nothing due by the clock: not even opened.
  if (memo && deps.tenancy.isKnownPartner(partnerId) && memo.stillIdle(partnerId, job.name, nowIso)) return { ...base, status: "idle", processed: 0, finishedAt: nowIso };
  // Taken before the probe reads, so a write racing the probe changes it.
  const stamp = memo?.stampFor(partnerId);
  const wasOpen = deps.tenancy.acquireOpen(partnerId);
  const opened = wasOpen ? { handle: wasOpen } : await openPartner(deps, base);
  if ("outcome" in opened) return opened.outcome;
  const { handle } = opened;
  const writeTx = <T>(fn: (tx: Querier) => Promise<T>) => deps.tenancy.writeTx(handle, fn);
  try {
    if (job.due && memo) {
      const jobCtx = Object.freeze({ ...systemContext(deps, handle, partnerId, runId, now), job: job.name, runId, log: deps.log, signal });
      // Opened for this job only: the other jobs' probes are asked now, so their passes need not open it again.
      if (!wasOpen) {
        for (const other of siblings) {
          if (memo.stillIdle(partnerId, other.name, nowIso, { count: false })) continue;
          const otherDue = await probe(deps, other, Object.freeze({ ...jobCtx, job: other.name }));
          if (otherDue === null || otherDue > nowIso) memo.remember(partnerId, other.name, stamp, otherDue);
        }
      }
      const dueAt = await probe(deps, job, jobCtx);
      if (dueAt === null || dueAt > nowIso) {
        memo.remember(partnerId, job.name, stamp, dueAt);
        deps.log.debug("job idle", { job: job.name, partnerId, runId });
        return { ...base, status: "idle", processed: 0, finishedAt: deps.clock.now().toISOString() };
      }
      memo.forget(partnerId, job.name);
    }
    const leaseMs = (job.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
    const outcome = await leasedRun({ deps, job, partnerId, holder, signal, runId, now, base, handle, writeTx, leaseMs });
    await record(deps, writeTx, outcome);
    return outcome;
  } finally {
    deps.tenancy.release(handle);
  }
}

/** The probe's answer; a probe that fails counts as "due" (the run then meets and records the trouble). */
async function probe(deps: Deps, job: PartnerJob, ctx: Parameters<NonNullable<PartnerJob["due"]>>[0]): Promise<string | null> {
  try {
    return await job.due!(ctx);
  } catch (err) {
    deps.log.warn("job probe failed", { job: job.name, partnerId: ctx.partnerId, runId: ctx.runId, ...errorFacts(err) });
    return ctx.nowIso;
  }
}

/** One job run for one partner whose database is open. */
interface PartnerRun {
  deps: Deps;
  job: PartnerJob;
  partnerId: string;
  holder: string;
  signal: AbortSignal;
  runId: string;
  now: Date;
  base: { job: string; partnerId: string; runId: string; startedAt: string };
  handle: TenantHandle;
  writeTx: WriteTx;
  leaseMs: number;
}

/** The partner's database, or the failed outcome when it is unknown or cannot be opened. */
async function openPartner(deps: Deps, base: PartnerRun["base"]): Promise<{ handle: TenantHandle } | { outcome: JobOutcome }> {
  const { job, partnerId, runId, startedAt } = base;
  try {
    if (!(await deps.tenancy.partnerExists(partnerId))) {
      return { outcome: { ...base, status: "failed", processed: 0, detail: `unknown partner ${partnerId}`, finishedAt: startedAt } };
    }
    return { handle: await deps.tenancy.acquire(partnerId) };
  } catch (err) {
    // Without the database there is nowhere to record the run: log only.
    deps.log.error("job could not open partner database", { job, partnerId, runId, ...errorFacts(err), reason: unavailableCause(err)?.reason });
    return { outcome: { ...base, status: "failed", processed: 0, detail: clip(unavailableCause(err)?.message) ?? "partner database unavailable", finishedAt: deps.clock.now().toISOString() } };
  }
}

/** Takes the job's lease, runs the job holding it, releases it: the run's outcome (skipped when another holder has the lease). */
async function leasedRun(r: PartnerRun): Promise<JobOutcome> {
  const { deps, job, partnerId, runId, base } = r;
  let lease: Lease;
  try {
    lease = await takeLease(r.writeTx, job.name, r.holder, r.now, r.leaseMs);
  } catch (err) {
    deps.log.error("job lease failed", { job: job.name, partnerId, runId, ...errorFacts(err) });
    return { ...base, status: "failed", processed: 0, detail: failureDetail(err), finishedAt: deps.clock.now().toISOString() };
  }
  if (!lease.taken) {
    const outcome: JobOutcome = {
      ...base,
      status: "skipped",
      processed: 0,
      detail: `lease held by ${lease.holder} until ${lease.expiresAt}`,
      finishedAt: deps.clock.now().toISOString(),
    };
    // Another instance is running it: normal, not worth a line at info every minute.
    deps.log.debug("job skipped", { job: job.name, partnerId, runId, holder: lease.holder });
    return outcome;
  }

  if (lease.from) deps.log.warn("job lease taken over from a process that no longer exists", { job: job.name, partnerId, runId, holder: lease.from });
  const { result, failure } = await runHoldingLease(r);
  try {
    await r.writeTx((tx) => tx.delete(jobLeases).where(and(eq(jobLeases.job, job.name), eq(jobLeases.holder, r.holder))));
  } catch (err) {
    // The lease then simply expires; the run itself is still recorded.
    deps.log.warn("job lease release failed", { job: job.name, partnerId, runId, ...errorFacts(err) });
  }

  if (result) {
    const outcome: JobOutcome = { ...base, status: "succeeded", processed: result.processed, detail: clip(result.detail), finishedAt: deps.clock.now().toISOString() };
    logSucceeded(deps, { job: job.name, partnerId, runId, processed: result.processed });
    return outcome;
  }
  deps.log.error("job failed", { job: job.name, partnerId, runId, ...errorFacts(failure) });
  return { ...base, status: "failed", processed: 0, detail: failureDetail(failure), finishedAt: deps.clock.now().toISOString() };
}

/** Runs the job, renewing its lease while a long run is still working, so nobody takes it over mid-run. */
async function runHoldingLease(r: PartnerRun): Promise<{ result?: JobResult; failure?: unknown }> {
  const { deps, job, partnerId, runId, holder, leaseMs } = r;
  const renew = setInterval(() => {
    const until = new Date(deps.clock.now().getTime() + leaseMs).toISOString();
    r.writeTx((tx) => tx.update(jobLeases).set({ expiresAt: until }).where(and(eq(jobLeases.job, job.name), eq(jobLeases.holder, holder)))).catch(
      (err: unknown) => deps.log.warn("job lease renewal failed", { job: job.name, partnerId, runId, ...errorFacts(err) }),
    );
  }, Math.max(1000, leaseMs / 3));
  renew.unref();
  try {
    return { result: await job.run(Object.freeze({ ...systemContext(deps, r.handle, partnerId, runId, r.now), job: job.name, runId, log: deps.log, signal: r.signal })) };
  } catch (err) {
    return { failure: err ?? new Error("job threw a nullish value") };
  } finally {
    clearInterval(renew);
  }
}

/** A run that did work is an `info` line; an idle pass (every partner, every minute) only a `debug` one. */
function logSucceeded(deps: Deps, fields: { job: string; partnerId?: string; runId: string; processed: number }): void {
  if (fields.processed > 0) deps.log.info("job succeeded", fields);
  else deps.log.debug("job succeeded", fields);
}

type WriteTx = <T>(fn: (tx: Querier) => Promise<T>) => Promise<T>;

/** Taken (`from`: the dead local holder it was taken over from), or held by another holder until it expires. */
type Lease = { taken: true; from?: string } | { taken: false; holder: string; expiresAt: string };

/**
 * Insert the lease, or take it over when it has expired, in one statement: the
 * conflict update only applies when the held lease is past its expiry, so of two
 * racing instances exactly one sees a changed row. A lease still running whose
 * holder is a process of this host that no longer exists is taken over at once, in
 * the same transaction, naming that holder (so two takers cannot both win).
 */
async function takeLease(writeTx: WriteTx, job: string, holder: string, now: Date, leaseMs: number): Promise<Lease> {
  const nowIso = now.toISOString();
  const expiresAt = new Date(now.getTime() + leaseMs).toISOString();
  return writeTx(async (tx) => {
    const r = await tx
      .insert(jobLeases)
      .values({ job, holder, expiresAt })
      .onConflictDoUpdate({ target: jobLeases.job, set: { holder, expiresAt }, setWhere: lte(jobLeases.expiresAt, nowIso) });
    if (r.rowsAffected > 0) return { taken: true } as const;
    const held = (await tx.select().from(jobLeases).where(eq(jobLeases.job, job)))[0];
    if (held && isDeadLocalHolder(held.holder)) {
      const t = await tx.update(jobLeases).set({ holder, expiresAt }).where(and(eq(jobLeases.job, job), eq(jobLeases.holder, held.holder)));
      if (t.rowsAffected > 0) return { taken: true, from: held.holder } as const;
    }
    return { taken: false, holder: held?.holder ?? "unknown", expiresAt: held?.expiresAt ?? "unknown" } as const;
  });
}

async function record(deps: Deps, writeTx: WriteTx, o: JobOutcome): Promise<void> {
  // An idle probe writes nothing (and never gets here).
  if (o.status === "idle") return;
  const status = o.status;
  try {
    await writeTx((tx) =>
      tx.insert(jobRuns).values({
        id: o.runId,
        job: o.job,
        status,
        startedAt: o.startedAt,
        finishedAt: o.finishedAt,
        detail: o.detail ?? null,
        processed: o.processed,
      }),
    );
  } catch (err) {
    deps.log.error("job run could not be recorded", { job: o.job, partnerId: o.partnerId, runId: o.runId, status: o.status, ...errorFacts(err) });
  }
}


/**
 * What the partner's own job_runs keeps: class and the first line of the message
 * (Drizzle puts parameters on later lines), clipped.
 */
function failureDetail(err: unknown): string {
  // A dependency that failed says which and why, without SQL (Drizzle's message would carry it).
  const down = unavailableCause(err);
  if (down) return clip(down.message) ?? down.name;
  if (err instanceof Error) {
    const firstLine = err.message.split("\n", 1)[0] ?? "";
    return clip(`${err.name}: ${firstLine}`) ?? err.name;
  }
  return typeof err;
}

function clip(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  return s.length > DETAIL_MAX ? s.slice(0, DETAIL_MAX - 1) + "…" : s;
}
