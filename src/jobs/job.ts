// What a job is: its schedule, its run function and the context a run gets.
import type { Deps } from "../platform/deps.ts";
import type { TenantCtx } from "../platform/tenancy/tenant-context.ts";
import type { Logger } from "../platform/log.ts";

export interface JobResult {
  /** Records the pass handled (deleted, sent, scanned…). */
  processed: number;
  /** A short human summary; stored in job_runs, so no secrets and no personal data. */
  detail?: string;
}

interface JobCtxBase {
  deps: Deps;
  job: string;
  runId: string;
  /** Clock time when the run started; jobs use it for every comparison and timestamp. */
  now: Date;
  log: Logger;
  /** Aborted on shutdown: long jobs should stop between batches. */
  signal: AbortSignal;
}

/**
 * Context of a run for one partner: the same tenant context a request has, acting
 * as `system` at the run's start time (requestId is the run id), so jobs call the
 * same services with withTx(ctx, …) as routes do. The database is held open for the run.
 */
export interface PartnerJobCtx extends JobCtxBase, TenantCtx {}

export type GlobalJobCtx = JobCtxBase;

interface JobBase {
  name: string;
  /** 5-field cron expression or nickname, interpreted in UTC. */
  schedule: string;
  /** How long a lease is held before another instance may take it over (default 10 min). */
  leaseSeconds?: number;
}

/**
 * When a partner's work for a job is due, as the job's probe answers it (an ISO time): at or
 * before the run's `now`, work is due now; later, nothing is due before then unless a write
 * makes it so; null, only a write can make work due. A probe that cannot bound its next time
 * answers `nextPass(ctx)`.
 */
export type DueAt = string | null;

/** Runs once per partner, under that partner's lease in its own database. */
export interface PartnerJob extends JobBase {
  perPartner: true;
  /**
   * A cheap read-only look at whether the run would do anything (indexed reads on the
   * reader, no transaction), asked before the lease: when nothing is due the run takes no
   * lease and writes no job_runs row (outcome `idle`). It may answer "due" when the run then
   * finds nothing (a wasted run), never "not due" when the run would have done something.
   * Without it every pass runs the job.
   */
  due?(ctx: PartnerJobCtx): Promise<DueAt>;
  run(ctx: PartnerJobCtx): Promise<JobResult>;
}

/** The probe's answer for "cannot tell how long nothing will be due": ask again at the next pass. */
export function nextPass(ctx: { now: Date }): string {
  return new Date(ctx.now.getTime() + 1).toISOString();
}

/** The earliest of several due times (null: none). */
export function earliest(...times: Array<string | null | undefined>): DueAt {
  let min: string | null = null;
  for (const t of times) if (t != null && (min === null || t < min)) min = t;
  return min;
}

/**
 * Runs once per pass, not per partner. The registry database has no lease table,
 * so only the in-process scheduler keeps such runs from overlapping.
 */
export interface GlobalJob extends JobBase {
  perPartner: false;
  run(ctx: GlobalJobCtx): Promise<JobResult>;
}

export type JobDefinition = PartnerJob | GlobalJob;
