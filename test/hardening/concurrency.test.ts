// Hardening: concurrency (issue 20, item 2). Through app.fetch, in process, on both
// drivers (`npm test` repeats it with TEST_DB_DRIVER=libsql). It proves:
// a) many writers: mixed keyed writes (assets, activations, checkouts, moves, hub tasks,
//    planning work items, saved views; a share of them sent twice at once with the same
//    key) fired concurrently within one hot partner and across 20 partners answer no 5xx,
//    log no SQLITE_BUSY, apply each keyed request once, and every total agrees: list
//    totals, /summary, /hub/summary and direct SQL counts equal what was created; then one
//    webhook pass delivers every event once to each of several endpoints per partner.
// b) races for one scarce thing leave exactly one winner: one item checked out by 50
//    callers, one hub task assigned by 20 (with expectedVersion: one winner; without it,
//    reassignment is allowed and the history is one consistent chain), one change set
//    applied twice under two keys, one workflow case decided by two reviewers, one
//    reservation window claimed by overlapping reservations.
// c) jobs that fan out, repeated, over several partners: reminders to several recipients
//    on several channels (exact attempts and messages), alerts over several conditions
//    (exact rows, idempotent re-runs, resolution), SMS leases by several devices at once
//    (no job leased twice, none lost, expired leases requeued).
// Sizes: CONCURRENCY_PARTNERS (20), CONCURRENCY_STORIES (hot partner's stories, 200; 60 on
// libSQL; the others a tenth), CONCURRENCY_IN_FLIGHT (stories at once per partner, 24; 12 on
// libSQL), CONCURRENCY_RACERS (50),
// CONCURRENCY_REPEATS (fan-out repetitions, 3); HARDENING_DEPTH=deep
// raises them all; HARDENING_SEED picks the seed.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createTestEnv, MutableClock, type CallResult, type TestEnv } from "../harness.ts";
import { partnerKit, type Kit } from "../kit.ts";
import { startReceiver, type Receiver } from "../fakes/webhook-receiver.ts";
import { startDiscordServer, startSmtpServer, startTelegramServer } from "../fakes/reminder-providers.ts";
import { runJob } from "../../src/jobs/run-job.ts";
import { webhookDeliveryJob } from "../../src/jobs/webhook-delivery.job.ts";
import { remindersJob } from "../../src/jobs/reminders.job.ts";
import { alertsJob } from "../../src/jobs/alerts.job.ts";
import { smsLeasesJob } from "../../src/jobs/sms-leases.job.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";
import { enqueueSms, setSmsBinding } from "../../src/planning/sms-gateway/sms-gateway.service.ts";
import { busyLines, countOf, knob, n, prng, rowsOf, SEED, sql, StatusTally } from "./hardening.ts";

// The libSQL pass is slower per statement (a loopback server); its defaults are smaller.
const REMOTE = process.env.TEST_DB_DRIVER === "libsql";
const PARTNERS = knob("CONCURRENCY_PARTNERS", 20, 40);
const HOT_STORIES = knob("CONCURRENCY_STORIES", REMOTE ? 60 : 200, 400);
const COLD_STORIES = Math.max(4, Math.round(HOT_STORIES / 10));
const IN_FLIGHT = knob("CONCURRENCY_IN_FLIGHT", REMOTE ? 12 : 24, 32);
const RACERS = knob("CONCURRENCY_RACERS", 50, 200);
const REPEATS = knob("CONCURRENCY_REPEATS", 3, 10);
const ENDPOINTS = 2;

const TG_TOKEN = "7000003:AAconcurrency-telegram-token";
const DC_TOKEN = "concurrency-discord-token";
const smtp = await startSmtpServer();
const tg = startTelegramServer(TG_TOKEN);
const dc = startDiscordServer(DC_TOKEN);
const clock = new MutableClock(new Date("2031-03-03T08:00:00.000Z"));
const env: TestEnv = await createTestEnv(
  {
    AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    WEBHOOK_ALLOW_PRIVATE: "1",
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MESSENGER_A_API_BASE: tg.url,
    MESSENGER_A_BOT_TOKEN: TG_TOKEN,
    MESSENGER_B_API_BASE: dc.url,
    MESSENGER_B_BOT_TOKEN: DC_TOKEN,
  },
  { clock },
);
const receivers: Receiver[] = [];
const tally = new StatusTally();
const counts = { writes: 0, duplicates: 0, races: 0, raceRequests: 0, webhookDeliveries: 0, jobRuns: 0, reminderAttempts: 0, alertRows: 0, smsJobs: 0, smsLeaseCalls: 0, smsExpiredLeases: 0, snapshotReads: 0, stormMs: 0, slowestWriteMs: 0, p50WriteMs: 0 };
/** How long each keyed write of the storm took, lock wait included. */
const writeMs: number[] = [];
afterAll(async () => {
  for (const r of receivers) r.stop();
  env.close();
  await smtp.stop();
  tg.stop();
  dc.stop();
});

/** A request as `user` of `partnerId` through app.fetch, counted in the tally. */
async function call(partnerId: string, user: string, method: string, path: string, body?: unknown, opts: { family?: "assets" | "planning"; idem?: string; label?: string; token?: string } = {}): Promise<CallResult> {
  const family = opts.family ?? "assets";
  const sep = path.includes("?") ? "&" : "?";
  const res = await env.call(method, `/api/${family}${path}${sep}partnerId=${partnerId}`, {
    token: opts.token ?? (await env.token(user)),
    body,
    ...(opts.idem ? { idem: opts.idem } : {}),
  });
  return tally.add(opts.label ?? `${method} ${path}`, res);
}

const day = 86_400_000;

/** Committed reads of any partner's database (kits exist for some partners only). */
async function readOf<T>(partnerId: string, fn: (q: Parameters<Parameters<Kit["read"]>[0]>[0]) => PromiseLike<T>): Promise<T> {
  const handle = await env.deps.tenancy.acquire(partnerId);
  try {
    return await fn(handle.db.read);
  } finally {
    env.deps.tenancy.release(handle);
  }
}
const rowsOfPartner = <T>(partnerId: string, query: ReturnType<typeof sql>) => readOf(partnerId, (q) => q.all<T>(query));
const countOfPartner = async (partnerId: string, query: ReturnType<typeof sql>) => Number((await rowsOfPartner<{ n: number }>(partnerId, query))[0]?.n ?? 0);
const iso = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

// ------------------------------------------------------------------ a) many writers

interface PartnerWorld {
  id: string;
  kit: Kit;
  locations: string[];
  projectId: string;
  hooks: Array<{ id: string; rx: Receiver }>;
  /** What the stories created, by kind (the expected totals). */
  made: { assets: number; active: number; checkedOut: number; moved: number; hubTasks: number; work: number; views: number };
}

async function setUpPartner(i: number): Promise<PartnerWorld> {
  const id = `conc-${String(i).padStart(2, "0")}`;
  const kit = await partnerKit({ env, partnerId: id, users: { ada: "admin", otto: "operator", olga: "operator" } });
  const locations = [(await kit.seed.location({ name: "Depot", kind: "site" })).id as string, (await kit.seed.location({ name: "Yard", kind: "site" })).id as string];
  const project = await call(id, "ada", "POST", "/projects", { name: "Launch", timeZone: "Europe/Berlin", members: [{ userId: "otto", role: "member" }, { userId: "olga", role: "member" }] }, { family: "planning" });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const hooks = [];
  for (let e = 0; e < ENDPOINTS; e++) {
    const rx = startReceiver({ path: `/hooks/${id}/${e}` });
    receivers.push(rx);
    const hook = await call(id, "ada", "POST", "/webhooks", { url: rx.url, events: ["asset.created", "asset.moved", "custody.checked_out"] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    hooks.push({ id: hook.body.id as string, rx });
  }
  return { id, kit, locations, projectId: project.body.id, hooks, made: { assets: 0, active: 0, checkedOut: 0, moved: 0, hubTasks: 0, work: 0, views: 0 } };
}

type StoryKind = "checkout" | "move" | "planned" | "hub" | "work" | "view";
const STORY_KINDS: StoryKind[] = ["checkout", "checkout", "move", "planned", "hub", "work", "view"];

/**
 * A keyed write; with `twice`, the same request under the same key is sent twice at
 * once: both must answer the first outcome (one of them replayed), applied once.
 */
async function write(w: PartnerWorld, user: string, method: string, path: string, body: unknown, twice: boolean, family: "assets" | "planning" = "assets"): Promise<CallResult> {
  const key = `w-${crypto.randomUUID()}`;
  counts.writes++;
  const t0 = performance.now();
  const timed = (res: CallResult) => {
    const ms = performance.now() - t0;
    writeMs.push(ms);
    counts.slowestWriteMs = Math.max(counts.slowestWriteMs, ms);
    return res;
  };
  if (!twice) return timed(await call(w.id, user, method, path, body, { family, idem: key }));
  counts.duplicates++;
  const [a, b] = await Promise.all([call(w.id, user, method, path, body, { family, idem: key }).then(timed), call(w.id, user, method, path, body, { family, idem: key }).then(timed)]);
  expect(a.status, `${path} ${JSON.stringify(a.body)}`).toBe(b.status);
  expect(a.body).toEqual(b.body);
  if (a.status < 300) expect([a.headers.get("idempotency-replayed"), b.headers.get("idempotency-replayed")].sort()).toEqual([null, "true"]);
  return a;
}

async function story(w: PartnerWorld, kind: StoryKind, rng: ReturnType<typeof prng>, s: number): Promise<void> {
  const user = rng.pick(["otto", "olga"]);
  const twice = rng.chance(0.2);
  const ok = (res: CallResult, status = 201) => expect(res.status, `${w.id} ${kind} ${JSON.stringify(res.body)}`).toBe(status);
  switch (kind) {
    case "planned":
    case "checkout":
    case "move": {
      const created = await write(w, user, "POST", "/assets", { name: `Tool ${s}`, ownership: "owned", locationId: w.locations[0] }, twice);
      ok(created);
      w.made.assets++;
      if (kind === "planned") return;
      if (kind === "move") {
        ok(await write(w, user, "POST", `/items/${created.body.id}/move`, { toLocationId: w.locations[1], reason: "restock" }, rng.chance(0.2)), 200);
        w.made.moved++;
        return;
      }
      ok(await write(w, user, "POST", `/items/${created.body.id}/activate`, {}, rng.chance(0.2)), 200);
      w.made.active++;
      ok(await write(w, user, "POST", "/checkouts", { itemId: created.body.id, holder: { kind: "user", id: user }, dueAt: iso(7 * day) }, rng.chance(0.2)));
      w.made.checkedOut++;
      return;
    }
    case "hub":
      ok(await write(w, user, "POST", "/hub/tasks", { taskType: "picking", title: `Pick ${s}`, targetLocationId: w.locations[1] }, twice));
      w.made.hubTasks++;
      return;
    case "work":
      ok(await write(w, user, "POST", `/projects/${w.projectId}/work`, { title: `Task ${s}` }, twice, "planning"));
      w.made.work++;
      return;
    case "view":
      // Saved views are personal: every story's view is otto's, so one list shows them all.
      ok(await write(w, "otto", "POST", "/saved-views", { name: `View ${s}`, surface: "owned", query: { limit: 20 } }, twice));
      w.made.views++;
      return;
  }
}

/** Every total the API and the database give agrees with what the stories created. */
async function expectTotals(w: PartnerWorld): Promise<void> {
  const get = async (path: string, family: "assets" | "planning" = "assets") => {
    const res = await call(w.id, "ada", "GET", path, undefined, { family });
    expect(res.status, `${w.id} GET ${path} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const m = w.made;
  const label = `${w.id} ${JSON.stringify(m)}`;
  expect((await get("/owned?limit=1")).total, label).toBe(m.assets);
  const summary = await get("/summary");
  expect(summary.totalItems, label).toBe(m.assets);
  expect(summary.byLifecycle, label).toMatchObject({ planned: m.assets - m.active, active: m.active });
  expect(summary.byAvailability, label).toMatchObject({ checked_out: m.checkedOut, available: m.active - m.checkedOut, unavailable: m.assets - m.active });
  expect((await get("/checkouts?state=checked_out&limit=1")).total, label).toBe(m.checkedOut);
  expect((await get("/hub/tasks?limit=1")).total, label).toBe(m.hubTasks);
  expect(await get("/hub/summary"), label).toMatchObject({ picking: m.hubTasks, openTasks: m.hubTasks, unassigned: m.hubTasks });
  const views = await call(w.id, "otto", "GET", "/saved-views?limit=1");
  expect(views.body.total, label).toBe(m.views);
  expect((await get(`/projects/${w.projectId}/work?limit=1`, "planning")).total, label).toBe(m.work);

  // The database agrees with the API, and every change wrote its movement and its event once.
  const k = w.kit;
  expect(await countOf(k, sql`select count(*) as n from items`), label).toBe(m.assets);
  expect(await countOf(k, sql`select count(*) as n from checkouts where state = 'checked_out'`), label).toBe(m.checkedOut);
  expect(await countOf(k, sql`select count(*) as n from hub_tasks`), label).toBe(m.hubTasks);
  expect(await countOf(k, sql`select count(*) as n from saved_views`), label).toBe(m.views);
  expect(await countOf(k, sql`select count(*) as n from planning_records where collection = 'work'`), label).toBe(m.work);
  expect(await countOf(k, sql`select count(*) as n from movements where kind = 'checked_out'`), label).toBe(m.checkedOut);
  expect(await countOf(k, sql`select count(*) as n from movements where kind = 'moved'`), label).toBe(m.moved);
  expect(await countOf(k, sql`select count(*) as n from outbox where kind = 'custody.checked_out'`), label).toBe(m.checkedOut);
  expect(await countOf(k, sql`select count(*) as n from outbox where kind = 'asset.moved'`), label).toBe(m.moved);
  expect(await countOf(k, sql`select count(*) as n from outbox where kind = 'asset.created'`), label).toBe(m.assets);
  // Availability agrees with the blocks that hold each item.
  expect(await countOf(k, sql`select count(*) as n from items i where (i.availability = 'checked_out') != exists (select 1 from item_blocks b where b.item_id = i.id and b.kind = 'checked_out')`), label).toBe(0);
}

let worlds: PartnerWorld[] = [];

describe("a) many concurrent writers within one partner and across partners", () => {
  test(`${PARTNERS} partners, ${HOT_STORIES} stories on the hot one and ${COLD_STORIES} on each other, ${IN_FLIGHT} at once per partner`, async () => {
    worlds = [];
    // Set-up in parallel too: provisioning and master data of several partners at once.
    for (let i = 0; i < PARTNERS; i += 5) worlds.push(...(await Promise.all(Array.from({ length: Math.min(5, PARTNERS - i) }, (_, j) => setUpPartner(i + j)))));
    const rng = prng(SEED);
    // Per partner, IN_FLIGHT stories run at once (each a chain of dependent requests, some
    // sent twice), all partners at the same time: the hot partner's write lock always has a
    // queue, sized to stay well within WRITE_LOCK_TIMEOUT_MS on a busy 2-core machine.
    const runStories = (w: PartnerWorld, i: number) => {
      const queue = Array.from({ length: i === 0 ? HOT_STORIES : COLD_STORIES }, (_, s) => () => story(w, rng.pick(STORY_KINDS), prng(SEED + i * 1000 + s), s));
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await next();
      };
      return Array.from({ length: IN_FLIGHT }, worker);
    };
    const before = env.logLines.length;
    // While the writers run: readers check that every answer is one snapshot (a page and its
    // total, the summary's counts with each other), and the webhook job delivers what is
    // already committed, as the scheduler would every minute.
    let writing = true;
    // Each loop yields to the event loop between passes: with the local driver every await of
    // an in-process request can resolve as a microtask, and a loop that never yields would
    // starve the timers and I/O the writers wait on (a real client's requests arrive as I/O).
    const readers = worlds.slice(0, 2).map(async (w) => {
      while (writing) {
        await Bun.sleep(10);
        counts.snapshotReads++;
        const [owned, summary, tasks] = await Promise.all([
          call(w.id, "ada", "GET", "/owned?limit=200"),
          call(w.id, "ada", "GET", "/summary"),
          call(w.id, "ada", "GET", "/hub/tasks?limit=200"),
        ]);
        expect(owned.status).toBe(200);
        expect(owned.body.items.length, "a page of the owned list disagrees with its total").toBe(Math.min(owned.body.total, 200));
        expect(tasks.body.tasks.length, "a page of hub tasks disagrees with its total").toBe(Math.min(tasks.body.total, 200));
        const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
        expect(sum(summary.body.byLifecycle)).toBe(summary.body.totalItems);
        expect(sum(summary.body.byAvailability)).toBe(summary.body.totalItems);
      }
    });
    const deliveries = (async () => {
      while (writing) {
        await Bun.sleep(20);
        const outcomes = await runJob(env.deps, webhookDeliveryJob);
        counts.jobRuns += outcomes.length;
        expect(outcomes.filter((o) => o.status === "failed")).toEqual([]);
      }
    })();
    const started = performance.now();
    try {
      await Promise.all(worlds.flatMap(runStories));
    } finally {
      counts.stormMs = performance.now() - started;
      writing = false;
      await Promise.allSettled([...readers, deliveries]);
    }
    await Promise.all([...readers, deliveries]);
    expect(tally.serverErrors).toEqual([]);
    expect(busyLines(env.logLines.slice(before))).toEqual([]);
    // The load stays within the write-lock timeout: a 503 from it would have failed the line above.
    counts.p50WriteMs = writeMs.sort((a, b) => a - b)[Math.floor(writeMs.length / 2)] ?? 0;
    for (const w of worlds) await expectTotals(w);
  }, 120_000);

  test(`the webhook job delivers every event once to each of ${ENDPOINTS} endpoints of every partner`, async () => {
    // A pass sends at most 100 deliveries per endpoint; passes run until one has nothing left to do.
    for (let pass = 0; pass < 20; pass++) {
      const outcomes = await runJob(env.deps, webhookDeliveryJob);
      counts.jobRuns += outcomes.length;
      // idle: the partner's probe found nothing due (no lease, no run record).
      expect(outcomes.filter((o) => o.status !== "succeeded" && o.status !== "idle")).toEqual([]);
      if (outcomes.every((o) => o.processed === 0)) break;
    }
    for (const w of worlds) {
      const expected = w.made.assets + w.made.moved + w.made.checkedOut;
      for (const h of w.hooks) {
        const ids = h.rx.received.map((r) => r.json.id as string);
        expect(new Set(ids).size, `${w.id} ${h.rx.url}`).toBe(ids.length);
        expect(ids.length, `${w.id} ${h.rx.url}`).toBe(expected);
        expect(h.rx.received.every((r) => r.json.partnerId === w.id)).toBe(true);
        counts.webhookDeliveries += ids.length;
      }
    }
  }, 60_000);
});

// ------------------------------------------------------------------ b) races for one scarce thing

/** Fires all calls at once (none starts before all are built) and returns their answers. */
async function race(calls: Array<() => Promise<CallResult>>): Promise<CallResult[]> {
  counts.races++;
  counts.raceRequests += calls.length;
  return Promise.all(calls.map((c) => c()));
}
const statuses = (rs: CallResult[]) => rs.map((r) => r.status).sort((a, b) => a - b);
const codes = (rs: CallResult[]) => rs.filter((r) => r.status >= 400).map((r) => r.body.code);

describe("b) racing requests for the same scarce thing leave exactly one winner", () => {
  const P = "race";
  let kit: Kit;
  const racers = Array.from({ length: RACERS }, (_, i) => `racer-${i}`);

  test(`setup: a partner with ${RACERS} operators`, async () => {
    kit = await partnerKit({ env, partnerId: P, users: { ada: "admin", max: "manager", mia: "manager", olga: "operator" } });
    for (const r of racers) await env.member(P, r, "operator");
  }, 60_000);

  test(`one item checked out by ${RACERS} callers at once: one 201, ${RACERS - 1} × 409, one checkout, one movement, one event`, async () => {
    const item = await kit.seed.activeAsset({ name: "Only drill" });
    const due = iso(3 * day);
    const answers = await race(racers.map((r) => () => call(P, r, "POST", "/checkouts", { itemId: item.id, holder: { kind: "user", id: r }, dueAt: due })));
    expect(statuses(answers)).toEqual([201, ...Array(RACERS - 1).fill(409)]);
    expect(new Set(codes(answers))).toEqual(new Set(["state_conflict"]));
    const winner = answers.find((a) => a.status === 201)!;
    expect(await countOf(kit, sql`select count(*) as n from checkouts where item_id = ${item.id}`)).toBe(1);
    expect(await countOf(kit, sql`select count(*) as n from movements where item_id = ${item.id} and kind = 'checked_out'`)).toBe(1);
    expect(await countOf(kit, sql`select count(*) as n from outbox where kind = 'custody.checked_out' and aggregate_id in (${item.id}, ${winner.body.id})`)).toBe(1);
    const got = await call(P, "ada", "GET", `/items/${item.id}`);
    expect(got.body).toMatchObject({ availability: "checked_out" });
  }, 60_000);

  test("one hub task assigned by 20 callers with expectedVersion: one winner, one assignment in the history", async () => {
    const task = await kit.create("/hub/tasks", { taskType: "picking", title: "Urgent pick", targetLocationId: (await kit.seed.location()).id });
    const assignees = racers.slice(0, 20);
    const answers = await race(assignees.map((a, i) => () => call(P, racers[(i + 20) % RACERS]!, "POST", `/hub/tasks/${task.id}/assign`, { assigneeUserId: a, reason: "wave", expectedVersion: 1 })));
    expect(statuses(answers)).toEqual([200, ...Array(19).fill(409)]);
    expect(new Set(codes(answers))).toEqual(new Set(["version_conflict"]));
    const winner = answers.find((a) => a.status === 200)!.body;
    const stored = (await call(P, "ada", "GET", `/hub/tasks/${task.id}`)).body;
    expect(stored).toMatchObject({ status: "assigned", assigneeUserId: winner.assigneeUserId, version: 2 });
    expect(stored.events.filter((e: { kind: string }) => e.kind === "assigned")).toHaveLength(1);
  }, 60_000);

  test("one hub task reassigned by 20 callers without expectedVersion: all apply in turn, the history is one chain ending in the final assignee", async () => {
    // Decision (src/assets/hub/README.md): reassigning an assigned task is allowed, so
    // without a version every caller wins in turn; the chain must still be consistent.
    const task = await kit.create("/hub/tasks", { taskType: "picking", title: "Shared pick", targetLocationId: (await kit.seed.location()).id });
    const assignees = racers.slice(20, 40);
    const answers = await race(assignees.map((a) => () => call(P, "olga", "POST", `/hub/tasks/${task.id}/assign`, { assigneeUserId: a, reason: "wave" })));
    expect(statuses(answers)).toEqual(Array(20).fill(200));
    const stored = (await call(P, "ada", "GET", `/hub/tasks/${task.id}`)).body;
    expect(stored.version).toBe(21);
    const assigned = await kit.read((q) =>
      // Insertion order (rowid): the clock stands still while they race.
      q.all<{ data: string }>(sql`select data from hub_task_events where task_id = ${task.id} and kind = 'assigned' order by rowid asc`),
    );
    expect(assigned).toHaveLength(20);
    let previous: string | null = null;
    for (const e of assigned) {
      const data = JSON.parse(e.data) as { assigneeUserId: string; previousAssigneeUserId?: string | null };
      expect(data.previousAssigneeUserId ?? null).toBe(previous);
      previous = data.assigneeUserId;
    }
    expect(stored.assigneeUserId).toBe(previous);
    expect(new Set(assigned.map((e) => (JSON.parse(e.data) as { assigneeUserId: string }).assigneeUserId))).toEqual(new Set(assignees));
  }, 60_000);

  test("one workflow case decided by two reviewers at once: one decision, the item disposed once", async () => {
    const item = await kit.seed.activeAsset({ name: "Old projector" });
    const created = await call(P, "olga", "POST", "/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: item.id, action: "retire" }, reason: "worn out" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const answers = await race([
      () => call(P, "max", "POST", `/workflow-cases/${created.body.id}/decision`, { decision: "approve", reason: "ok", expectedVersion: 1 }),
      () => call(P, "mia", "POST", `/workflow-cases/${created.body.id}/decision`, { decision: "reject", reason: "keep it", expectedVersion: 1 }),
    ]);
    expect(statuses(answers), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body;
    const stored = (await call(P, "ada", "GET", `/workflow-cases/${created.body.id}`)).body;
    expect(stored.state).toBe(winner.state);
    expect(stored.history.filter((h: { kind: string }) => h.kind !== "created")).toHaveLength(1);
    const itemNow = (await call(P, "ada", "GET", `/items/${item.id}`)).body;
    expect(itemNow.lifecycle).toBe(winner.state === "completed" ? "retired" : "active");
    expect(await countOf(kit, sql`select count(*) as n from item_history where item_id = ${item.id} and data like '%retired%'`)).toBe(winner.state === "completed" ? 1 : 0);
  }, 60_000);

  test("a reservation window claimed by 10 overlapping reservations at once: one 201", async () => {
    const item = await kit.seed.activeAsset({ name: "Van" });
    const answers = await race(
      racers.slice(0, 10).map((r, i) => () =>
        call(P, r, "POST", "/reservations", { itemId: item.id, holder: { kind: "user", id: r }, startsAt: iso(2 * day + i * 3_600_000), endsAt: iso(3 * day + i * 3_600_000) }),
      ),
    );
    expect(statuses(answers)).toEqual([201, ...Array(9).fill(409)]);
    expect(new Set(codes(answers))).toEqual(new Set(["state_conflict"]));
    expect(await countOf(kit, sql`select count(*) as n from checkouts where item_id = ${item.id} and state = 'reserved'`)).toBe(1);
  }, 60_000);

  test("one change set applied twice at once under two keys: one applied, the other 409, the tier changed once", async () => {
    const planning = (user: string, method: string, path: string, body?: unknown) => call(P, user, method, path, body, { family: "planning" });
    const project = await planning("ada", "POST", "/projects", { name: "Gala", timeZone: "Europe/Paris", members: [{ userId: "max", role: "member" }, { userId: "olga", role: "member" }] });
    const pp = `/projects/${project.body.id}`;
    const event = await planning("ada", "POST", `${pp}/canonical-command`, {
      command: "create_event",
      data: { name: "Gala", startsAt: "2031-09-01T18:00:00Z", endsAt: "2031-09-01T23:00:00Z", timeZone: "Europe/Paris", status: "on_sale" },
    });
    expect(event.status, JSON.stringify(event.body)).toBe(200);
    await planning("ada", "POST", `${pp}/link-event`, { eventId: event.body.id });
    const tier = await planning("ada", "POST", `${pp}/canonical-command`, { command: "create_tier", data: { name: "Standard", price: { amount: "30.00", currency: "EUR" } } });
    expect(tier.status, JSON.stringify(tier.body)).toBe(200);
    const cs = await planning("olga", "POST", `${pp}/change-sets`, {
      title: "Raise",
      operations: [{ op: "update", target: { type: "tier", id: tier.body.id }, expectedUpdatedAt: tier.body.updatedAt, changes: { price: { amount: "35.00", currency: "EUR" } } }],
    });
    expect(cs.status, JSON.stringify(cs.body)).toBe(201);
    expect((await planning("max", "POST", `${pp}/change-sets/${cs.body.id}/review`, { decision: "approve", reason: "ok" })).status).toBe(200);
    clock.advance(1000);
    const tierWrites = () => countOf(kit, sql`select count(*) as n from planning_audit where record_id = ${tier.body.id}`);
    const writesBefore = await tierWrites();
    const answers = await race([
      () => call(P, "ada", "POST", `${pp}/change-sets/${cs.body.id}/apply`, {}, { family: "planning", idem: "apply-a" }),
      () => call(P, "ada", "POST", `${pp}/change-sets/${cs.body.id}/apply`, {}, { family: "planning", idem: "apply-b" }),
    ]);
    expect(statuses(answers), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
    expect(codes(answers)).toEqual(["state_conflict"]);
    expect(answers.find((a) => a.status === 200)!.body.state).toBe("applied");
    expect((await planning("olga", "GET", `${pp}/change-sets/${cs.body.id}`)).body.state).toBe("applied");
    const catalog = (await planning("olga", "GET", `${pp}/event-catalog`)).body;
    expect(catalog.tiers[0].price).toEqual({ amount: "35.00", currency: "EUR" });
    expect(await tierWrites()).toBe(writesBefore + 1);
  }, 60_000);
});

// ------------------------------------------------------------------ c) jobs that fan out

/** Runs a job over the given partners twice at once, as two instances would: leases keep each partner's pass single. */
async function runTwiceAtOnce(job: Parameters<typeof runJob>[1], partnerIds: string[]) {
  const pass = async (holder: string) => {
    const out = [];
    for (const partnerId of partnerIds) out.push(...(await runJob(env.deps, job, { partnerId, holder })));
    return out;
  };
  const [a, b] = await Promise.all([pass("instance-a"), pass("instance-b")]);
  const all = [...a, ...b];
  counts.jobRuns += all.length;
  expect(all.filter((o) => o.status === "failed")).toEqual([]);
  return all;
}

describe("c) jobs that fan out over several recipients, conditions and devices per partner", () => {
  const FAN = 3;
  const people = ["ana", "bob", "cyd", "dan"] as const;
  const fan: Array<{ id: string; projectId: string; chats: Record<string, string>; dms: Record<string, string> }> = [];
  const plan = (partnerId: string, user: string, method: string, path: string, body?: unknown) => call(partnerId, user, method, path, body, { family: "planning" });

  test(`reminders: ${FAN} partners × 4 recipients on email, messenger_a and messenger_b; ${REPEATS} rounds; exact attempts and messages`, async () => {
    for (let p = 0; p < FAN; p++) {
      const id = `fan-rem-${p}`;
      await partnerKit({ env, partnerId: id, users: { lead: "admin" } });
      for (const u of people) await upsertMember(env.deps, { partnerId: id, userId: u, role: "operator", email: `${u}@${id}.test` });
      const project = await plan(id, "lead", "POST", "/projects", { name: "Festival", timeZone: "Europe/Berlin", members: people.map((u) => ({ userId: u, role: "member" })) });
      expect(project.status).toBe(201);
      const pp = `/projects/${project.body.id}`;
      const chats: Record<string, string> = {};
      const dms: Record<string, string> = {};
      // ana and bob link messenger_a (Telegram shape), cyd messenger_b (Discord shape); dan has email only.
      for (const [u, chatId] of [["ana", 7_200_000_000 + p * 10], ["bob", 7_200_000_001 + p * 10]] as const) {
        const link = await plan(id, u, "POST", `${pp}/my-reminder-channels/messenger_a_dm/link`, {});
        tg.userSends(chatId, `/start ${link.body.link.code}`);
        expect((await plan(id, u, "POST", `${pp}/my-reminder-channels/messenger_a_dm/verify`, { code: link.body.link.code })).status).toBe(200);
        expect((await plan(id, u, "POST", `${pp}/my-reminder-channels/messenger_a_dm/preference`, { reminders: true })).status).toBe(200);
        chats[u] = String(chatId);
      }
      const account = `11223344556677${String(1000 + p)}`;
      expect((await plan(id, "cyd", "POST", `${pp}/my-reminder-channels/messenger_b_dm/link`, { accountId: account })).status).toBe(200);
      const code = dc.messages.at(-1)!.content.match(/code is ([A-Z0-9]+)/)![1]!;
      expect((await plan(id, "cyd", "POST", `${pp}/my-reminder-channels/messenger_b_dm/verify`, { code })).status).toBe(200);
      expect((await plan(id, "cyd", "POST", `${pp}/my-reminder-channels/messenger_b_dm/preference`, { reminders: true })).status).toBe(200);
      dms.cyd = `8${account.slice(1)}`;
      fan.push({ id, projectId: project.body.id, chats, dms });
    }
    const mailsBefore = smtp.messages.length;
    const tgBefore = tg.sent.length;
    const dcBefore = dc.messages.length;
    // Per round and partner: one reminder to all four (4 emails, 2 + 1 DMs) and one to ana and cyd (2 emails, 1 + 1 DMs).
    const PER_ROUND = { email: 6, messenger_a_dm: 3, messenger_b_dm: 2 };
    for (let round = 1; round <= REPEATS; round++) {
      await Promise.all(
        fan.map(async (f) => {
          const pp = `/projects/${f.projectId}`;
          const all = await plan(f.id, "lead", "POST", `${pp}/reminders`, { title: `Briefing ${round}`, audience: [...people], at: iso(10 * 60_000) });
          const some = await plan(f.id, "lead", "POST", `${pp}/reminders`, { title: `Walk ${round}`, audience: ["ana", "cyd"], at: iso(20 * 60_000) });
          expect([all.status, some.status]).toEqual([201, 201]);
        }),
      );
      await runTwiceAtOnce(remindersJob, fan.map((f) => f.id));
      clock.advance(30 * 60_000);
      await runTwiceAtOnce(remindersJob, fan.map((f) => f.id));
      await runTwiceAtOnce(remindersJob, fan.map((f) => f.id));
      for (const f of fan) {
        const attempts = await rowsOfPartner<{ channel: string; state: string; n: number }>(f.id, sql`select channel, state, count(*) as n from planning_notification_outbox group by channel, state order by channel`);
        expect(attempts, f.id).toEqual([
          { channel: "email", state: "sent", n: PER_ROUND.email * round },
          { channel: "messenger_a_dm", state: "sent", n: PER_ROUND.messenger_a_dm * round },
          { channel: "messenger_b_dm", state: "sent", n: PER_ROUND.messenger_b_dm * round },
        ]);
        expect(await countOfPartner(f.id, sql`select count(*) as n from planning_reminder_deliveries`)).toBe((PER_ROUND.email + PER_ROUND.messenger_a_dm + PER_ROUND.messenger_b_dm) * round);
      }
    }
    // What the providers received: each message once, to the right recipient.
    const mails = smtp.messages.slice(mailsBefore);
    expect(mails).toHaveLength(FAN * PER_ROUND.email * REPEATS);
    for (const f of fan) {
      for (const u of people) expect(mails.filter((m) => m.to[0] === `${u}@${f.id}.test`).length, `${f.id} ${u}`).toBe((u === "ana" || u === "cyd" ? 2 : 1) * REPEATS);
      expect(tg.sent.slice(tgBefore).filter((m) => m.chatId === f.chats.ana).length).toBe(2 * REPEATS);
      expect(tg.sent.slice(tgBefore).filter((m) => m.chatId === f.chats.bob).length).toBe(REPEATS);
      expect(dc.messages.slice(dcBefore).filter((m) => m.channelId === f.dms.cyd).length).toBe(2 * REPEATS);
    }
    counts.reminderAttempts += FAN * (PER_ROUND.email + PER_ROUND.messenger_a_dm + PER_ROUND.messenger_b_dm) * REPEATS;
  }, 90_000);

  test(`alerts: ${FAN} partners × several conditions; exact rows, re-runs change nothing, cleared conditions resolve`, async () => {
    const H = 3_600_000;
    const made: Array<{ kit: Kit; checkouts: string[] }> = [];
    for (let p = 0; p < FAN; p++) {
      const kit = await partnerKit({ env, partnerId: `fan-al-${p}`, users: { ada: "admin", oli: "operator" } });
      const party = await kit.seed.party();
      const checkouts: string[] = [];
      for (let i = 0; i < 3; i++) {
        const item = await kit.seed.activeAsset();
        // Two due within 24 h, one due in 2 days (no alert yet).
        checkouts.push((await kit.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "oli" }, dueAt: iso(i < 2 ? 12 * H : 48 * H) })).id);
      }
      for (let i = 0; i < 2; i++) await kit.seed.agreement({ partyId: party.id, kind: "lease", startsOn: "2031-01-01", endsOn: "2031-03-20" });
      await kit.seed.agreement({ partyId: party.id, kind: "lease", startsOn: "2031-01-01", endsOn: "2031-12-31" });
      for (let i = 0; i < 2; i++) {
        const item = await kit.seed.activeAsset();
        await kit.create("/work-orders", { itemId: item.id, kind: "repair", title: `Fix ${i}`, dueAt: iso(6 * H) });
      }
      made.push({ kit, checkouts });
    }
    const kinds = (kit: Kit) => rowsOf<{ kind: string; status: string; n: number }>(kit, sql`select kind, status, count(*) as n from alerts group by kind, status order by kind, status`);

    await runTwiceAtOnce(alertsJob, made.map((m) => m.kit.partnerId));
    await runTwiceAtOnce(alertsJob, made.map((m) => m.kit.partnerId));
    for (const { kit } of made) {
      expect(await kinds(kit), kit.partnerId).toEqual([
        { kind: "agreement_expiring", status: "open", n: 2 },
        { kind: "checkout_due", status: "open", n: 2 },
      ]);
    }
    // A day later: the two checkouts are overdue, the third is due, the work orders overdue.
    clock.advance(24 * H);
    await runTwiceAtOnce(alertsJob, made.map((m) => m.kit.partnerId));
    await runTwiceAtOnce(alertsJob, made.map((m) => m.kit.partnerId));
    for (const { kit } of made) {
      expect(await kinds(kit), kit.partnerId).toEqual([
        { kind: "agreement_expiring", status: "open", n: 2 },
        { kind: "checkout_due", status: "open", n: 1 },
        { kind: "checkout_due", status: "resolved", n: 2 },
        { kind: "checkout_overdue", status: "open", n: 2 },
        { kind: "work_order_overdue", status: "open", n: 2 },
      ]);
    }
    // Every checkout comes back: all their alerts resolve, nothing else moves.
    for (const { kit, checkouts } of made) for (const id of checkouts) expect((await kit.post(`/checkouts/${id}/return`, {})).status).toBe(200);
    await runTwiceAtOnce(alertsJob, made.map((m) => m.kit.partnerId));
    for (const { kit } of made) {
      expect(await kinds(kit), kit.partnerId).toEqual([
        { kind: "agreement_expiring", status: "open", n: 2 },
        { kind: "checkout_due", status: "resolved", n: 3 },
        { kind: "checkout_overdue", status: "resolved", n: 2 },
        { kind: "work_order_overdue", status: "open", n: 2 },
      ]);
      counts.alertRows += await countOf(kit, sql`select count(*) as n from alerts`);
    }
  }, 60_000);

  test("SMS leases: 2 partners × 4 devices leasing at once; no job leased twice, none lost, expired leases requeued", async () => {
    const DEVICES = 4;
    // More than the devices may send in a minute (3 recipients: 50 open jobs each at most).
    const JOBS = 90;
    const parts: Array<{ kit: Kit; devices: Array<{ id: string; token: string }>; jobs: string[] }> = [];
    const device = (token: string, id: string, method: string, path: string, body?: unknown) =>
      env.call(method, `/api/planning/sms-gateway/devices/${id}${path}`, { token, body, idem: false }).then((r) => tally.add(`device ${path}`, r));
    const heartbeat = (d: { id: string; token: string }) =>
      device(d.token, d.id, "POST", "/heartbeat", { online: true, permissions: { sendSms: true, readPhoneState: true }, sims: [{ slot: 0, country: "DE", state: "active", verified: true, roaming: false }] });
    for (let p = 0; p < 2; p++) {
      const kit = await partnerKit({ env, partnerId: `fan-sms-${p}`, family: "planning", users: { ada: "admin", opal: "operator", pete: "operator", rita: "operator" } });
      const recipients = ["opal", "pete", "rita"] as const;
      const projectId = (await kit.create("/projects", { name: "Run", timeZone: "Europe/Berlin", members: recipients.map((userId) => ({ userId, role: "member" })) })).id;
      const bindings: Record<string, string> = Object.fromEntries(recipients.map((u) => [u, crypto.randomUUID()]));
      for (const [u, b] of Object.entries(bindings)) await kit.inTenant((ctx) => setSmsBinding(ctx, { bindingId: b, projectId, recipientUserId: u, identityVersion: 1, accepts: "reminders" }));
      const devices = [];
      for (let d = 0; d < DEVICES; d++) {
        const id = crypto.randomUUID();
        const issued = await kit.post(`/projects/${projectId}/sms-gateway/devices/${id}/native-token`, { action: "issue", policy: { allowedCountries: ["DE"], sendsPerMinute: 10 } });
        expect(issued.status, JSON.stringify(issued.body)).toBe(200);
        devices.push({ id, token: issued.body.nativeToken as string });
        expect((await heartbeat(devices.at(-1)!)).status).toBe(200);
      }
      const jobs: string[] = [];
      for (let j = 0; j < JOBS; j++) {
        const r = recipients.indexOf(recipients[j % 3]!);
        const u = recipients[r]!;
        const job = await kit.inTenant((ctx) =>
          enqueueSms(ctx, { projectId, recipientUserId: u, phoneE164: `+491511234000${r}`, countryCode: "DE", text: `Shift ${p}-${j} starts soon`, purpose: "reminder", logicalKey: `reminder:${p}:${j}`, bindingId: bindings[u]!, identityVersion: 1 }),
        );
        expect(job.state).toBe("pending");
        jobs.push(job.jobId);
      }
      parts.push({ kit, devices, jobs });
    }
    counts.smsJobs += parts.length * JOBS;

    /** jobId → the distinct leases handed out for it (a device asking again gets its unexpired lease back). */
    const leases = new Map<string, Set<string>>();
    const dropped = new Map<string, number>();
    let sent = 0;
    for (let round = 0; round < 20 && sent < parts.length * JOBS; round++) {
      for (const part of parts) for (const d of part.devices) expect((await heartbeat(d)).status).toBe(200);
      // Every device of both partners leases at the same moment; the first device of each
      // partner takes its first round's jobs and drops them (never rechecks), then stays away
      // for two rounds so those leases expire: they must come back to the queue and go out once.
      const leasing = parts.flatMap((part) => part.devices.map((d, i) => ({ part, d, i }))).filter(({ i }) => i !== 0 || round === 0 || round >= 3);
      const answers = await Promise.all(leasing.map(async (x) => ({ ...x, res: await device(x.d.token, x.d.id, "POST", "/lease", { max: 10 }) })));
      counts.smsLeaseCalls += answers.length;
      const thisRound = new Set<string>();
      for (const { part, d, i, res } of answers) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const job of res.body.jobs as Array<{ jobId: string; leaseId: string; payloadDigest: string; cancellationRevision: number }>) {
          expect(thisRound.has(job.jobId), `job ${job.jobId} leased to two devices in round ${round}`).toBe(false);
          thisRound.add(job.jobId);
          leases.set(job.jobId, (leases.get(job.jobId) ?? new Set()).add(job.leaseId));
          if (i === 0 && round === 0) {
            dropped.set(part.kit.partnerId, (dropped.get(part.kit.partnerId) ?? 0) + 1);
            continue;
          }
          const re = await device(d.token, d.id, "POST", `/jobs/${job.jobId}/recheck`, { leaseId: job.leaseId, payloadDigest: job.payloadDigest, cancellationRevision: job.cancellationRevision });
          expect(re.body.proceed, JSON.stringify(re.body)).toBe(true);
          const rc = await device(d.token, d.id, "POST", `/jobs/${job.jobId}/receipt`, { leaseId: job.leaseId, clientMessageId: `m-${job.leaseId}`, status: "delivered" });
          expect(rc.status, JSON.stringify(rc.body)).toBe(200);
          sent++;
        }
      }
      clock.advance(61_000);
      await runTwiceAtOnce(smsLeasesJob, parts.map((p) => p.kit.partnerId));
    }
    for (const part of parts) expect(dropped.get(part.kit.partnerId) ?? 0, part.kit.partnerId).toBeGreaterThan(0);
    counts.smsExpiredLeases += [...dropped.values()].reduce((a, b) => a + b, 0);
    for (const part of parts) {
      // Every job went out exactly once: delivered, one delivered attempt, and only the dropped leases expired.
      const states = await rowsOf<{ state: string; n: number }>(part.kit, sql`select state, count(*) as n from sms_gateway_jobs group by state`);
      expect(states, part.kit.partnerId).toEqual([{ state: "delivered", n: JOBS }]);
      const outcomes = await rowsOf<{ job_id: string; outcome: string; device_id: string }>(part.kit, sql`select job_id, outcome, device_id from sms_gateway_attempts order by rowid`);
      for (const jobId of part.jobs) {
        const mine = outcomes.filter((o) => o.job_id === jobId);
        expect(mine.filter((o) => o.outcome === "delivered"), jobId).toHaveLength(1);
        expect(mine.filter((o) => o.outcome !== "delivered").every((o) => o.outcome === "lease_expired" && o.device_id === part.devices[0]!.id), JSON.stringify(mine)).toBe(true);
        expect(leases.get(jobId)!.size, jobId).toBe(mine.length);
      }
      expect(outcomes.filter((o) => o.outcome === "lease_expired")).toHaveLength(dropped.get(part.kit.partnerId)!);
    }
  }, 90_000);
});

afterAll(() => {
  console.log(
    `hardening/concurrency [${env.driver}]: ${n(tally.requests)} requests (${n(counts.writes)} keyed writes, ${n(counts.duplicates)} sent twice at once), ` +
      `${PARTNERS} partners (storm ${n(Math.round(counts.stormMs))} ms, write p50 ${n(Math.round(counts.p50WriteMs))} ms, slowest ${n(Math.round(counts.slowestWriteMs))} ms, ${n(counts.snapshotReads)} snapshot checks), ${n(counts.races)} races (${n(counts.raceRequests)} racing requests), ${n(counts.webhookDeliveries)} webhook deliveries, ` +
      `${n(counts.jobRuns)} job runs, ${n(counts.reminderAttempts)} reminder attempts, ${n(counts.alertRows)} alert rows, ` +
      `${n(counts.smsJobs)} SMS jobs over ${n(counts.smsLeaseCalls)} concurrent lease calls (${n(counts.smsExpiredLeases)} leases left to expire), ${tally.fivexx} 5xx, seed ${SEED}`,
  );
});
