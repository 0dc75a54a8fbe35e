// Issue 22 item 5: a pass of the scheduled jobs costs what the due work costs. An idle
// partner takes no lease, gets no job_runs row and, on a libSQL server, no write
// transaction; a partner idle at the previous pass and not written since is not even
// opened, until its next due time by the clock or a write.
import { test, expect, afterAll, describe } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, utimesSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestEnv, MutableClock, type TestEnv } from "../../test/harness.ts";
import { partnerKit } from "../../test/kit.ts";
import { startHranaServer } from "../../test/fakes/hrana-server.ts";
import { jobLeases, jobRuns } from "../platform/jobs/jobs.tables.ts";
import { localFilePath } from "../platform/db/database.ts";
import { createJobRegistry, type PartnerJob } from "./registry.ts";
import { idleMemoOf, runJob, type JobOutcome } from "./run-job.ts";

const JOBS = createJobRegistry().list();
const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

async function pass(env: TestEnv, opts: { partnerId?: string } = {}): Promise<JobOutcome[]> {
  const all: JobOutcome[] = [];
  for (const job of JOBS) all.push(...(await runJob(env.deps, job, opts)));
  return all;
}

async function bookkeeping(env: TestEnv, partnerId: string) {
  const h = await env.deps.tenancy.acquire(partnerId);
  try {
    return { runs: await h.db.read.select().from(jobRuns), leases: await h.db.read.select().from(jobLeases) };
  } finally {
    env.deps.tenancy.release(h);
  }
}

/** Moves a local partner database's files into the past, as for a partner last written minutes ago. */
function settle(env: TestEnv, partnerId: string) {
  const path = localFilePath(env.deps.tenancy.urlFor(partnerId));
  const past = new Date(Date.now() - 60_000);
  for (const p of [path, `${path}-wal`]) if (existsSync(p)) utimesSync(p, past, past);
}

describe("idle partners", () => {
  test("on a libSQL server, a pass of the nine jobs over idle partners opens no write transaction and records nothing", async () => {
    const authToken = randomBytes(16).toString("hex");
    const dir = mkdtempSync(join(tmpdir(), "idle-libsql-"));
    const server = startHranaServer({ dir, authToken });
    closers.push(() => server.stop());
    const env = await createTestEnv({ TENANT_DB_URL: server.template, TENANT_DB_AUTH_TOKEN: authToken });
    closers.push(() => env.close());
    const partners = ["idle-a", "idle-b", "idle-c"];
    for (const p of partners) {
      await env.provision(p);
      await env.member(p, "ops", "admin");
    }
    const before = server.streams.length;

    const outcomes = await pass(env);

    expect(outcomes).toHaveLength(JOBS.length * partners.length);
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(["idle"]));
    const partnerStatements = server.streams
      .slice(before)
      .filter((s) => partners.includes(s.namespace))
      .flatMap((s) => s.statements.map((st) => st.sql.trim().split(/\s+/, 2).join(" ").toUpperCase()));
    // Reads only: the probes' SELECTs (one read snapshot, BEGIN DEFERRED, per partner for the reminder schedule), never a write.
    expect(partnerStatements.length).toBeGreaterThan(0);
    expect(partnerStatements.filter((s) => /^(BEGIN IMMEDIATE|BEGIN EXCLUSIVE|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP)/.test(s))).toEqual([]);
    expect(partnerStatements.filter((s) => s.startsWith("BEGIN"))).toEqual(partners.map(() => "BEGIN DEFERRED"));
    for (const p of partners) expect(await bookkeeping(env, p)).toEqual({ runs: [], leases: [] });
  });

  test("an idle local partner is not opened again until a write or its next due time; then its due work runs", async () => {
    const clock = new MutableClock(new Date("2030-03-04T09:00:00.000Z"));
    // Local files whatever the driver of the run: the stamp is of the partner's files.
    const env = await createTestEnv({ TENANT_DB_URL: "file:{TENANTS_DIR}/{partnerId}.db" }, { clock });
    closers.push(() => env.close());
    const api = await partnerKit({ env, clock, partnerId: "quiet", users: { ops: "admin" } });
    const site = await api.seed.location({ name: "Site", kind: "site" });
    const drill = await api.seed.activeAsset({ name: "Drill", locationId: site.id });
    const memo = idleMemoOf(env.deps);

    // First pass: every job is probed (reads) and idle; nothing recorded.
    settle(env, "quiet");
    expect(new Set((await pass(env, { partnerId: "quiet" })).map((o) => o.status))).toEqual(new Set(["idle"]));
    // Second pass: nothing was written and nothing fell due, so the partner is not opened at all.
    const skipped = memo.skipped;
    expect(new Set((await pass(env, { partnerId: "quiet" })).map((o) => o.status))).toEqual(new Set(["idle"]));
    expect(memo.skipped - skipped).toBe(JOBS.length);

    // A write (a reservation whose window starts in 10 minutes and ends in an hour) makes the partner probed again.
    const r = await api.post("/reservations", {
      itemId: drill.id,
      holder: { kind: "user", id: "ops" },
      startsAt: new Date(clock.current.getTime() + 10 * 60_000).toISOString(),
      endsAt: new Date(clock.current.getTime() + 60 * 60_000).toISOString(),
    });
    expect(r.status).toBe(201);
    settle(env, "quiet");
    const afterWrite = memo.skipped;
    const reservations = JOBS.find((j) => j.name === "reservations") as PartnerJob;
    expect((await runJob(env.deps, reservations, { partnerId: "quiet" }))[0]!.status).toBe("idle");
    expect(memo.skipped).toBe(afterWrite);
    // Unwritten since, before its start: skipped without opening.
    expect((await runJob(env.deps, reservations, { partnerId: "quiet" }))[0]!.status).toBe("idle");
    expect(memo.skipped).toBe(afterWrite + 1);

    // The clock alone reaches the window's start: the run happens, with no write in between.
    clock.advance(11 * 60_000);
    const [started] = await runJob(env.deps, reservations, { partnerId: "quiet" });
    expect(started).toMatchObject({ status: "succeeded", processed: 1, detail: "expired reservations 0, windows started 1" });
    expect((await api.get(`/items/${drill.id}`)).body.availability).toBe("reserved");
    expect((await bookkeeping(env, "quiet")).runs.map((x) => [x.job, x.status, x.processed])).toEqual([["reservations", "succeeded", 1]]);
    expect((await bookkeeping(env, "quiet")).leases).toEqual([]);
  });
});

describe("due work", () => {
  test("a job whose probe says due still runs under the exclusive lease: of two holders one runs, the other is skipped", async () => {
    const env = await createTestEnv();
    closers.push(() => env.close());
    await env.provision("busy");
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const job: PartnerJob = {
      name: "gated-due",
      schedule: "* * * * *",
      perPartner: true,
      due: async (ctx) => ctx.nowIso,
      async run() {
        started();
        await gate;
        return { processed: 1 };
      },
    };
    const first = runJob(env.deps, job, { partnerId: "busy", holder: "instance-a" });
    await running;
    const [second] = await runJob(env.deps, job, { partnerId: "busy", holder: "instance-b" });
    expect(second).toMatchObject({ status: "skipped", detail: expect.stringContaining("instance-a") });
    open();
    expect((await first)[0]!.status).toBe("succeeded");
    expect((await bookkeeping(env, "busy")).runs.map((r) => r.status).sort()).toEqual(["skipped", "succeeded"]);
  });

  test("a probe that fails counts as due: the run goes ahead and is recorded", async () => {
    const env = await createTestEnv();
    closers.push(() => env.close());
    await env.provision("flaky");
    const job: PartnerJob = {
      name: "flaky-probe",
      schedule: "* * * * *",
      perPartner: true,
      due: async () => {
        throw new Error("probe broke");
      },
      run: async () => ({ processed: 2 }),
    };
    expect((await runJob(env.deps, job, { partnerId: "flaky" }))[0]).toMatchObject({ status: "succeeded", processed: 2 });
    expect((await bookkeeping(env, "flaky")).runs.map((r) => r.status)).toEqual(["succeeded"]);
  });
});
