import { test, expect, afterAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../test/harness.ts";
import type { Logger } from "../platform/log.ts";
import { jobLeases, jobRuns } from "../platform/jobs/jobs.tables.ts";
import { idempotencyKeys } from "../platform/idempotency/idempotency.tables.ts";
import { drafts } from "../assets/views/views.tables.ts";
import { JobRegistry, UnknownJobError, createJobRegistry, type PartnerJob } from "./registry.ts";
import { processHolderId, runJob } from "./run-job.ts";
import { housekeepingJob } from "./housekeeping.job.ts";
import { startScheduler, type CronFn } from "./scheduler.ts";
import type { TenantTx } from "../platform/tenancy/tenancy.ts";

const logged: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
const captureLog: Logger = {
  debug: (msg, fields) => logged.push({ level: "debug", msg, fields }),
  info: (msg, fields) => logged.push({ level: "info", msg, fields }),
  warn: (msg, fields) => logged.push({ level: "warn", msg, fields }),
  error: (msg, fields) => logged.push({ level: "error", msg, fields }),
};
const clock = new MutableClock(new Date("2030-01-15T12:00:00.000Z"));
const env = await createTestEnv({}, { clock, log: captureLog });
afterAll(() => env.close());

let seq = 0;
async function freshPartner(): Promise<string> {
  const id = `p-${++seq}`;
  await env.provision(id);
  return id;
}

async function inPartner<T>(partnerId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T> {
  const h = await env.deps.tenancy.acquire(partnerId);
  try {
    return await env.deps.tenancy.writeTx(h, fn);
  } finally {
    env.deps.tenancy.release(h);
  }
}

async function runsOf(partnerId: string, job: string) {
  return inPartner(partnerId, (tx) => tx.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(jobRuns.startedAt));
}

/** A job that waits for the test to let it finish, so two runs overlap for certain. */
function gatedJob(name: string) {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const job: PartnerJob = {
    name,
    schedule: "* * * * *",
    perPartner: true,
    async run() {
      started();
      await gate;
      return { processed: 3, detail: "done" };
    },
  };
  return { job, open, started: startedP };
}

describe("leases", () => {
  test("two concurrent runs for one partner: one succeeds, the other is skipped", async () => {
    const pid = await freshPartner();
    const { job, open, started } = gatedJob("gated");
    const first = runJob(env.deps, job, { partnerId: pid, holder: "instance-a" });
    await started;
    const second = await runJob(env.deps, job, { partnerId: pid, holder: "instance-b" });
    expect(second).toHaveLength(1);
    expect(second[0]!.status).toBe("skipped");
    expect(second[0]!.detail).toContain("instance-a");
    open();
    const [done] = await first;
    expect(done!.status).toBe("succeeded");
    expect(done!.processed).toBe(3);

    const runs = await runsOf(pid, "gated");
    expect(runs.map((r) => r.status).sort()).toEqual(["skipped", "succeeded"]);
    // Released after the run: nothing left behind.
    expect(await inPartner(pid, (tx) => tx.select().from(jobLeases))).toEqual([]);
  });

  test("a lease still held by another instance skips; an expired one is taken over", async () => {
    const pid = await freshPartner();
    const job: PartnerJob = { name: "quick", schedule: "* * * * *", perPartner: true, run: async () => ({ processed: 1 }) };
    const later = new Date(clock.now().getTime() + 60_000).toISOString();
    await inPartner(pid, (tx) => tx.insert(jobLeases).values({ job: "quick", holder: "crashed-instance", expiresAt: later }));

    const [held] = await runJob(env.deps, job, { partnerId: pid, holder: "me" });
    expect(held!.status).toBe("skipped");

    clock.advance(61_000);
    const [taken] = await runJob(env.deps, job, { partnerId: pid, holder: "me" });
    expect(taken!.status).toBe("succeeded");
    expect(await inPartner(pid, (tx) => tx.select().from(jobLeases))).toEqual([]);
    expect((await runsOf(pid, "quick")).map((r) => r.status)).toEqual(["skipped", "succeeded"]);
  });

  test("a lease whose holder is a process of this host that no longer exists (killed mid-run) is taken over at once; a live one is not", async () => {
    const pid = await freshPartner();
    const job: PartnerJob = { name: "orphaned", schedule: "* * * * *", perPartner: true, run: async () => ({ processed: 1 }) };
    const gone = Bun.spawn([process.execPath, "-e", ""]);
    await gone.exited;
    const holderOf = (p: number) => processHolderId.replace(`:${process.pid}:`, `:${p}:`);
    const later = new Date(clock.now().getTime() + 600_000).toISOString();
    // A live process of this host (the test runner's parent) keeps its lease until it expires.
    await inPartner(pid, (tx) => tx.insert(jobLeases).values({ job: "orphaned", holder: holderOf(process.ppid), expiresAt: later }));
    expect((await runJob(env.deps, job, { partnerId: pid, holder: "me" }))[0]!.status).toBe("skipped");
    // A dead one does not: its lease is taken over, the run recorded, the lease released.
    await inPartner(pid, (tx) => tx.update(jobLeases).set({ holder: holderOf(gone.pid) }));
    logged.length = 0;
    const [taken] = await runJob(env.deps, job, { partnerId: pid, holder: "me" });
    expect(taken!.status).toBe("succeeded");
    expect(logged.find((l) => l.msg === "job lease taken over from a process that no longer exists")?.fields).toMatchObject({ job: "orphaned", holder: holderOf(gone.pid) });
    expect(await inPartner(pid, (tx) => tx.select().from(jobLeases))).toEqual([]);
  });

  test("the same instance running twice at once is also exclusive", async () => {
    const pid = await freshPartner();
    const { job, open, started } = gatedJob("gated-same");
    const first = runJob(env.deps, job, { partnerId: pid, holder: "same" });
    await started;
    const [second] = await runJob(env.deps, job, { partnerId: pid, holder: "same" });
    expect(second!.status).toBe("skipped");
    open();
    expect((await first)[0]!.status).toBe("succeeded");
  });
});

describe("failures", () => {
  test("a throwing job is recorded failed, logged without its message, and the wrapper resolves", async () => {
    const pid = await freshPartner();
    const job: PartnerJob = {
      name: "broken",
      schedule: "* * * * *",
      perPartner: true,
      run: async () => {
        throw new TypeError("boom secret=hunter2\nparams: more");
      },
    };
    logged.length = 0;
    const outcomes = await runJob(env.deps, job, { partnerId: pid });
    expect(outcomes[0]!.status).toBe("failed");
    expect(outcomes[0]!.detail).toBe("TypeError: boom secret=hunter2");

    const errors = logged.filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.fields).toMatchObject({ job: "broken", partnerId: pid, error: "TypeError" });
    expect(JSON.stringify(errors)).not.toContain("hunter2");

    const runs = await runsOf(pid, "broken");
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe("failed");
    // The lease is released even after a failure: the next run goes ahead.
    expect(await inPartner(pid, (tx) => tx.select().from(jobLeases))).toEqual([]);
  });

  test("one partner's failure does not stop the others", async () => {
    const a = await freshPartner();
    const b = await freshPartner();
    const job: PartnerJob = {
      name: "picky",
      schedule: "* * * * *",
      perPartner: true,
      run: async (ctx) => {
        if (ctx.partnerId === a) throw new Error("no");
        return { processed: 1 };
      },
    };
    const outcomes = await runJob(env.deps, job);
    const byPartner = Object.fromEntries(outcomes.map((o) => [o.partnerId, o.status]));
    expect(byPartner[a]).toBe("failed");
    expect(byPartner[b]).toBe("succeeded");
  });

  test("an unknown partner fails without throwing", async () => {
    const [o] = await runJob(env.deps, housekeepingJob, { partnerId: "nope-never" });
    expect(o!.status).toBe("failed");
    expect(o!.detail).toBe("unknown partner nope-never");
  });
});

describe("registry", () => {
  test("resolves names and all, and rejects unknown jobs with the registered list", () => {
    const reg = createJobRegistry();
    expect(reg.names()).toEqual(["housekeeping", "reservations", "replenishment", "alerts", "webhooks", "scans", "interop-exports", "sms-leases", "reminders"]);
    expect(reg.resolve("all").map((j) => j.name)).toEqual(["housekeeping", "reservations", "replenishment", "alerts", "webhooks", "scans", "interop-exports", "sms-leases", "reminders"]);
    expect(() => reg.resolve("nonsense")).toThrow(new UnknownJobError("unknown job nonsense (registered: housekeeping, reservations, replenishment, alerts, webhooks, scans, interop-exports, sms-leases, reminders)"));
  });

  test("refuses duplicate names and schedules that do not parse", () => {
    const reg = new JobRegistry([housekeepingJob]);
    expect(() => reg.register(housekeepingJob)).toThrow();
    expect(() => reg.register({ ...housekeepingJob, name: "bad", schedule: "61 * * * *" })).toThrow();
  });
});

describe("housekeeping", () => {
  test("deletes old idempotency keys, expired drafts and old run records, keeps fresh ones", async () => {
    const pid = await freshPartner();
    const now = clock.now();
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const ahead = (ms: number) => new Date(now.getTime() + ms).toISOString();
    const H = 3600_000;
    const key = (k: string, createdAt: string) => ({
      userId: "u1", method: "POST", route: "/saved-views", key: k, fingerprint: "f", status: 201, body: "{}", headers: {}, createdAt,
    });
    const draft = (wk: string, expiresAt: string) => ({
      userId: "u1", route: "/items", workflowKey: wk, payload: "{}", expiresAt, createdAt: ago(H), updatedAt: ago(H),
    });
    const run = (id: string, startedAt: string) => ({ id, job: "x", status: "succeeded" as const, startedAt, finishedAt: startedAt });
    await inPartner(pid, async (tx) => {
      await tx.insert(idempotencyKeys).values([key("old", ago(49 * H)), key("fresh", ago(H))]);
      await tx.insert(drafts).values([draft("expired", ago(1000)), draft("live", ahead(H))]);
      await tx.insert(jobRuns).values([run("old-run", ago(31 * 24 * H)), run("fresh-run", ago(24 * H))]);
    });

    const [o] = await runJob(env.deps, housekeepingJob, { partnerId: pid });
    expect(o!.status).toBe("succeeded");
    expect(o!.processed).toBe(3);
    expect(o!.detail).toBe("idempotency keys 1, drafts 1, job runs 1, abandoned import commits 0");

    const left = await inPartner(pid, async (tx) => ({
      keys: (await tx.select().from(idempotencyKeys)).map((r) => r.key),
      drafts: (await tx.select().from(drafts)).map((r) => r.workflowKey),
      runs: (await tx.select().from(jobRuns)).map((r) => r.id).filter((id) => id.endsWith("-run")),
    }));
    expect(left).toEqual({ keys: ["fresh"], drafts: ["live"], runs: ["fresh-run"] });
  });
});

describe("scheduler", () => {
  test("schedules every job in UTC, runs them on fire, and stops cleanly", async () => {
    const pid = await freshPartner();
    const fired: Array<{ schedule: string; handler: () => unknown; tz?: string; stopped: boolean }> = [];
    const fakeCron: CronFn = (schedule, handler, options) => {
      const entry = { schedule, handler, tz: options?.tz, stopped: false };
      fired.push(entry);
      return { stop: () => (entry.stopped = true) };
    };
    const jobsOn = { ...env.deps, config: { ...env.deps.config, jobs: true } };
    const seen: string[] = [];
    const scheduler = startScheduler(jobsOn, { cron: fakeCron, onRun: (os) => seen.push(...os.map((o) => `${o.partnerId}:${o.status}`)) });
    expect(scheduler.jobs).toEqual(["housekeeping", "reservations", "replenishment", "alerts", "webhooks", "scans", "interop-exports", "sms-leases", "reminders"]);
    expect(fired.map((f) => [f.schedule, f.tz])).toEqual([
      ["0 * * * *", "UTC"],
      ["* * * * *", "UTC"],
      ["*/5 * * * *", "UTC"],
      ["* * * * *", "UTC"],
      ["* * * * *", "UTC"],
      ["* * * * *", "UTC"], // scans
      ["* * * * *", "UTC"], // interop-exports
      ["* * * * *", "UTC"], // sms-leases
      ["* * * * *", "UTC"], // reminders
    ]);

    // A fresh partner has nothing for housekeeping to remove: its probe says idle, and nothing is recorded.
    await fired[0]!.handler();
    expect(seen).toContain(`${pid}:idle`);
    expect(await runsOf(pid, "housekeeping")).toEqual([]);
    expect(await inPartner(pid, (tx) => tx.select().from(jobLeases))).toEqual([]);
    await scheduler.stop();
    expect(fired.every((f) => f.stopped)).toBe(true);
  });

  test("does nothing when jobs are off", async () => {
    const calls: string[] = [];
    const s = startScheduler(env.deps, { cron: (sch) => (calls.push(sch), { stop: () => {} }) });
    expect(calls).toEqual([]);
    expect(s.jobs).toEqual([]);
    await s.stop();
  });

  test("real Bun.cron registration starts and stops", async () => {
    const jobsOn = { ...env.deps, config: { ...env.deps.config, jobs: true } };
    const s = startScheduler(jobsOn);
    expect(s.jobs).toEqual(["housekeeping", "reservations", "replenishment", "alerts", "webhooks", "scans", "interop-exports", "sms-leases", "reminders"]);
    await s.stop();
  });
});
