// Named jobs: what runs, when, and over which partners. The scheduler, the CLI
// (`npm run jobs`) and tests all resolve jobs through a JobRegistry, and every run
// goes through run-job.ts, so leases and run records are never the job's concern.
import { housekeepingJob } from "./housekeeping.job.ts";
import { reservationsJob } from "./reservations.job.ts";
import { replenishmentJob } from "./replenishment.job.ts";
import { interopExportsJob } from "./interop-exports.job.ts";
import { alertsJob } from "./alerts.job.ts";
import { webhookDeliveryJob } from "./webhook-delivery.job.ts";
import { evidenceScanJob } from "./evidence-scan.job.ts";
import { smsLeasesJob } from "./sms-leases.job.ts";
import { remindersJob } from "./reminders.job.ts";
import type { JobDefinition } from "./job.ts";

export type { GlobalJob, GlobalJobCtx, JobDefinition, JobResult, PartnerJob, PartnerJobCtx } from "./job.ts";

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
  return new JobRegistry([housekeepingJob, reservationsJob, replenishmentJob, alertsJob, webhookDeliveryJob, evidenceScanJob, interopExportsJob, smsLeasesJob, remindersJob]);
}
