// Named jobs: what runs, when, and over which partners. The scheduler, the CLI
// (`npm run jobs`) and tests all resolve jobs through a JobRegistry, and every run
// goes through run-job.ts, so leases and run records are never the job's concern.
import type { Deps } from "../deps.ts";
import type { Querier } from "../platform/http/context.ts";
import type { Logger } from "../platform/log.ts";
import type { TenantHandle } from "../platform/tenancy/tenancy.ts";
import { housekeepingJob } from "./housekeeping.job.ts";
import { reservationsJob } from "./reservations.job.ts";

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

/** Context of a run for one partner: its database, held open for the run. */
export interface PartnerJobCtx extends JobCtxBase {
  partnerId: string;
  tenant: TenantHandle;
  /** The partner's reader (committed data only). */
  db: Querier;
  /** One short write transaction under the partner's write lock. */
  withTx<T>(fn: (tx: Querier) => Promise<T>): Promise<T>;
}

export type GlobalJobCtx = JobCtxBase;

interface JobBase {
  name: string;
  /** 5-field cron expression or nickname, interpreted in UTC. */
  schedule: string;
  /** How long a lease is held before another instance may take it over (default 10 min). */
  leaseSeconds?: number;
}

/** Runs once per partner, under that partner's lease in its own database. */
export interface PartnerJob extends JobBase {
  perPartner: true;
  run(ctx: PartnerJobCtx): Promise<JobResult>;
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

export class UnknownJobError extends Error {}

const JOB_NAME_RE = /^[a-z][a-z0-9-]{0,62}$/;

export class JobRegistry {
  #jobs = new Map<string, JobDefinition>();

  constructor(jobs: JobDefinition[] = []) {
    for (const j of jobs) this.register(j);
  }

  register(job: JobDefinition): this {
    if (!JOB_NAME_RE.test(job.name)) throw new Error(`invalid job name ${JSON.stringify(job.name)}`);
    if (this.#jobs.has(job.name)) throw new Error(`job ${job.name} is already registered`);
    // Fail at registration, not at the first tick, when a schedule does not parse.
    if (Bun.cron.parse(job.schedule, Date.now(), { tz: "UTC" }) === null) {
      throw new Error(`job ${job.name}: schedule ${JSON.stringify(job.schedule)} never fires`);
    }
    this.#jobs.set(job.name, job);
    return this;
  }

  get(name: string): JobDefinition | undefined {
    return this.#jobs.get(name);
  }

  list(): JobDefinition[] {
    return [...this.#jobs.values()];
  }

  names(): string[] {
    return [...this.#jobs.keys()];
  }

  /** `all` → every job; a name → that job; anything else → UnknownJobError. */
  resolve(name: string): JobDefinition[] {
    if (name === "all") return this.list();
    const job = this.#jobs.get(name);
    if (!job) throw new UnknownJobError(`unknown job ${name} (registered: ${this.names().join(", ") || "none"})`);
    return [job];
  }
}

/** Every job the service ships; feature issues add theirs here. */
export function createJobRegistry(): JobRegistry {
  return new JobRegistry([housekeepingJob, reservationsJob]);
}
