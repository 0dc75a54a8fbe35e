// In-process scheduling with Bun.cron (callback form, UTC). Bun.cron never
// overlaps invocations of one schedule: the next fire is computed after the
// previous callback settles. Each fire runs the job through runJob, which never
// rejects, so a failing job cannot surface as an unhandled rejection.
import type { Deps } from "../platform/deps.ts";
import { createJobRegistry, type JobRegistry } from "./registry.ts";
import { runJob, type JobOutcome } from "./run-job.ts";

/** The subset of Bun.cron's callback overload the scheduler uses; tests pass a fake. */
export type CronFn = (schedule: string, handler: () => unknown, options?: { tz?: string }) => { stop(): unknown };

export interface SchedulerOptions {
  registry?: JobRegistry;
  holder?: string;
  cron?: CronFn;
  /** How long stop() waits for running jobs before giving up on them. */
  drainMs?: number;
  /** Called after each fire with its outcomes (tests, metrics). */
  onRun?: (outcomes: JobOutcome[]) => void;
}

export interface Scheduler {
  /** Names of the jobs scheduled. */
  jobs: string[];
  /** Stops future fires, aborts running jobs' signal and waits for them to finish. */
  stop(): Promise<void>;
}

const bunCron: CronFn = (schedule, handler, options) => Bun.cron(schedule, handler, options);

/** Schedules every registered job when `config.jobs` is on; otherwise a no-op scheduler. */
export function startScheduler(deps: Deps, opts: SchedulerOptions = {}): Scheduler {
  if (!deps.config.jobs) return { jobs: [], stop: async () => {} };
  const registry = opts.registry ?? createJobRegistry();
  const cron = opts.cron ?? bunCron;
  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const handles = registry.list().map((job) =>
    cron(
      job.schedule,
      () => {
        if (stopped) return;
        const p = (async () => {
          try {
            const outcomes = await runJob(deps, job, { holder: opts.holder, signal: abort.signal, siblings: registry.list() });
            opts.onRun?.(outcomes);
          } catch (err) {
            // runJob does not reject; this guards onRun and keeps the process alive regardless.
            deps.log.error("scheduled job wrapper failed", { job: job.name, error: err instanceof Error ? err.name : typeof err });
          }
        })();
        running.add(p);
        return p.finally(() => running.delete(p));
      },
      { tz: "UTC" },
    ),
  );
  deps.log.info("scheduler started", { jobs: registry.names() });

  return {
    jobs: registry.names(),
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const h of handles) h.stop();
      abort.abort();
      if (running.size === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise<void>((r) => (timer = setTimeout(r, opts.drainMs ?? 30_000))),
      ]).finally(() => clearTimeout(timer));
    },
  };
}
