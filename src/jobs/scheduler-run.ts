// The scheduler route's work: one pass of a named job (or all) for every partner,
// through the same wrapper (leases, run records) as the in-process cron and the CLI.
import { createJobRegistry, UnknownJobError } from "./registry.ts";
import { runJob, type JobOutcome } from "./run-job.ts";
import { invalid } from "../platform/errors/app-error.ts";
import type { Deps } from "../platform/deps.ts";

export async function runScheduledJob(deps: Deps, name: string): Promise<{ job: string; outcomes: JobOutcome[] }> {
  let jobs;
  const registry = createJobRegistry();
  try {
    jobs = registry.resolve(name);
  } catch (err) {
    if (err instanceof UnknownJobError) throw invalid("/body/job", err.message);
    throw err;
  }
  const outcomes: JobOutcome[] = [];
  for (const job of jobs) outcomes.push(...(await runJob(deps, job, { siblings: registry.list() })));
  return { job: name, outcomes };
}
