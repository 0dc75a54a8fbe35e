// hardening/instances: two real server processes (`bun run src/main.ts`) over the same
// partners: the same local files, or, with TEST_DB_DRIVER=libsql, the same loopback
// libSQL server (partner databases and the registry remote). Contract §2 routes each
// partner to one instance, but nothing may go wrong when two meet. This suite proves:
// - the same Idempotency-Key sent to both at once (many pairs, three routes) applies
//   exactly once: one answer applies, the other replays it byte for byte or is 409
//   idempotency_in_progress, and the record exists once;
// - a long write transaction on one instance (a 4,000-row import commit) neither freezes
//   the other nor turns its writes into 5xx: they wait for the database's write lock
//   while everything else is answered at once;
// - job leases: every job run on both at once never runs a partner's job on both at the
//   same time: the run that meets a running one is recorded `skipped` naming its holder,
//   and the webhook receiver never sees two requests to one endpoint in flight at once;
// - an access change made through one (capability role defaults) or beside both (a
//   deactivated membership, a changed role, as `npm run tenant` makes them) is honoured by
//   both on their very next request;
// - a read one answered is fresh on its next request after the other wrote (data version,
//   ETag and exact totals follow another process's commits);
// - webhooks: both run the delivery job again and again while events are written through
//   both, and every event reaches each endpoint once, in commit order, under one delivery id;
// - (local files) another process holding a partner file's write lock, as a shell would: a
//   write waits without stalling the event loop, is 503 service_unavailable past
//   WRITE_LOCK_TIMEOUT_MS with nothing applied, and applies once the lock is free.
// Settings: INSTANCES_PAIRS (same-key pairs, default 40; 200 with HARDENING_DEPTH=deep),
// INSTANCES_EVENTS (writes during the webhook race, default 40; 200 deep).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createTestEnv, type TestEnv } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { startReceiver, verifySignature, type ReceivedRequest, type Receiver } from "../fakes/webhook-receiver.ts";
import { deactivateMember, upsertMember } from "../../src/platform/tenancy/members.ts";
import { errorLines, serverEnv, startServerProcess, type ServerProcess } from "./server-process.ts";
import { USERS, WEBHOOK_EVENTS, Tokens, invariantViolations, send, setUpPartner, sqlOf, undeliveredEvents, type PartnerSetup, type Reply } from "./workload.ts";

const DEEP = process.env.HARDENING_DEPTH === "deep";
const PAIRS = Number(process.env.INSTANCES_PAIRS ?? (DEEP ? 200 : 40));
const EVENTS = Number(process.env.INSTANCES_EVENTS ?? (DEEP ? 200 : 40));
const PARTNERS = ["twin-a", "twin-b"];
/** A partner without webhook endpoints, for the long transaction (its thousands of events would only be delivered). */
const BULK = "twin-bulk";
const ENDPOINTS_PER_PARTNER = 2;

const secrets = {
  dataKek: randomBytes(32).toString("base64"),
  webhookKey: randomBytes(32).toString("base64"),
  schedulerSecret: randomBytes(24).toString("base64url"),
};
let te: TestEnv;
let receiver: Receiver;
let receiverDelay = 0;
let tokens: Tokens;
let A: ServerProcess;
let B: ServerProcess;
const setups: Record<string, PartnerSetup> = {};
const counts = {
  pairs: 0,
  replays: 0,
  inProgress: 0,
  longTx: "",
  /** Waits for the other instance's lock that outlasted the busy timeout (a loaded machine): 503, then applied on retry. */
  lockedOut: 0,
  jobRuns: 0,
  skipped: 0,
  accessChecks: 0,
  freshReads: 0,
  events: 0,
  deliveries: 0,
  jobPasses: 0,
  passesSkipped: 0,
};

const q = (partnerId: string) => `?partnerId=${partnerId}`;
type Outcome = { job: string; partnerId: string; runId: string; status: string; processed: number; detail?: string };
async function jobPass(s: ServerProcess, job: string): Promise<Outcome[]> {
  const res = await send(s.url, "POST", "/api/planning/scheduler/run", { token: secrets.schedulerSecret, body: { job } });
  expect(res.status, `${s.name} ${job}: ${res.text}`).toBe(200);
  return res.body.outcomes;
}

beforeAll(async () => {
  te = await createTestEnv({ DATA_KEK: secrets.dataKek, AMS_WEBHOOK_ENCRYPTION_KEY: secrets.webhookKey, SCHEDULER_SECRET: secrets.schedulerSecret });
  te.secrets.add("configured secret", secrets.schedulerSecret);
  receiver = startReceiver({ delayMs: () => receiverDelay });
  tokens = new Tokens(te);
  for (const p of [...PARTNERS, BULK]) {
    await te.provision(p);
    for (const [user, role] of Object.entries(USERS)) await te.member(p, user, role);
  }
  const env = serverEnv(te, secrets);
  [A, B] = await Promise.all([
    startServerProcess(env, { name: "A", onLog: (l) => te.logLines.push(l) }),
    startServerProcess(env, { name: "B", onLog: (l) => te.logLines.push(l) }),
  ]);
  for (const p of PARTNERS) setups[p] = await setUpPartner(A.url, tokens, te, p, { receiverBase: `http://127.0.0.1:${receiver.port}`, endpoints: ENDPOINTS_PER_PARTNER });
  setups[BULK] = await setUpPartner(B.url, tokens, te, BULK, { receiverBase: `http://127.0.0.1:${receiver.port}`, endpoints: 0 });
}, 60_000);

afterAll(async () => {
  await Promise.all([A?.kill("SIGTERM"), B?.kill("SIGTERM")]);
  receiver?.stop();
  // A lock wait that outlasted the busy timeout (counted in lockedOut) is logged as the file not serving; nothing else may be.
  const errors = te ? errorLines(te.logLines).filter((l) => !(counts.lockedOut > 0 && l.includes('"reason":"database cannot serve (SQLITE_BUSY)"'))) : [];
  te?.close();
  // Nothing either instance logged at error level: no SQLITE_BUSY, no failed job, no 500.
  expect(errors).toEqual([]);
  console.log(
    `hardening/instances (${process.env.TEST_DB_DRIVER === "libsql" ? "libSQL server" : "local files"}): 2 server processes, ` +
      `${counts.pairs} same-key pairs (${counts.replays} replays, ${counts.inProgress} idempotency_in_progress, 0 applied twice), ` +
      `long transaction: ${counts.longTx}${counts.lockedOut ? ` (${counts.lockedOut} write outlasted the busy timeout: 503, applied on retry)` : ""}, ${counts.jobRuns} job runs at once (${counts.skipped} skipped, no endpoint ever had two deliveries in flight), ` +
      `${counts.accessChecks} access checks after changes, ${counts.freshReads} fresh read after the other's write, ` +
      `${counts.events} events written through both while ${counts.jobPasses} delivery passes ran ` +
      `(${counts.passesSkipped} skipped): ${counts.deliveries} deliveries, 0 twice, 0 second delivery ids`,
  );
});

/** Pairs of requests to one endpoint that were in flight at the same time (the service sends an endpoint's deliveries one after the other). */
function overlapping(got: ReceivedRequest[]): string[] {
  const sorted = [...got].sort((a, b) => a.arrivedAt - b.arrivedAt);
  const out: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.arrivedAt < sorted[i - 1]!.answeredAt) out.push(`${sorted[i - 1]!.deliveryId} and ${sorted[i]!.deliveryId}`);
  }
  return out;
}

/** Runs the delivery job on A and B in turn until every endpoint has seen the whole outbox and every delivery succeeded. */
async function drain(): Promise<void> {
  for (let pass = 0; pass < 40; pass++) {
    for (const o of await jobPass(pass % 2 ? B : A, "webhooks")) expect(o.status, `${o.partnerId}: ${o.detail}`).not.toBe("failed");
    if ((await undeliveredEvents(te, PARTNERS)) === 0) return;
  }
  throw new Error("the outbox was not drained in 40 passes");
}

describe(`two instances over the same partners (${process.env.TEST_DB_DRIVER === "libsql" ? "libSQL server" : "local files"})`, () => {
  test(`the same Idempotency-Key sent to both at once applies once (${PAIRS} pairs over three routes)`, async () => {
    const pairs = Array.from({ length: PAIRS }, (_, i) => {
      const s = setups[PARTNERS[i % PARTNERS.length]!]!;
      const P = q(s.partnerId);
      const name = `twin ${i}`;
      switch (i % 3) {
        case 0:
          return { s, name, table: "items", column: "name", user: "op", path: `/api/assets/assets${P}`, body: { name, ownership: "owned", locationId: s.originId } };
        case 1:
          return { s, name, table: "locations", column: "name", user: "boss", path: `/api/assets/locations${P}`, body: { name, kind: "room", parentId: s.originId } };
        default:
          return { s, name, table: "planning_records", column: "title", user: "op", path: `/api/planning/projects/${s.projectId}/work${P}`, body: { title: name } };
      }
    });
    const answers = await Promise.all(
      pairs.map(async (p, i) => {
        const token = await tokens.of(p.user);
        return Promise.all([A, B].map((s) => send(s.url, "POST", p.path, { token, key: `twin-key-${i}`, body: p.body })));
      }),
    );
    const problems: string[] = [];
    for (const [i, [a, b]] of answers.entries()) {
      counts.pairs++;
      const applied = [a!, b!].filter((r) => r.status === 201 && r.headers.get("idempotency-replayed") !== "true");
      if (applied.length !== 1) {
        problems.push(`pair ${i}: ${a!.status}/${b!.status}, ${applied.length} applied: ${a!.text.slice(0, 200)} | ${b!.text.slice(0, 200)}`);
        continue;
      }
      const other = applied[0] === a ? b! : a!;
      if (other.status === 201 && other.headers.get("idempotency-replayed") === "true" && other.text === applied[0]!.text) counts.replays++;
      else if (other.status === 409 && other.body?.code === "idempotency_in_progress") counts.inProgress++;
      else problems.push(`pair ${i}: the second answer is ${other.status} ${other.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    for (const p of pairs) {
      const [row] = await sqlOf(te, p.s.partnerId, `SELECT count(*) AS n FROM ${p.table} WHERE ${p.column} = ?`, [p.name]);
      expect(Number(row!.n), `${p.table} ${p.name}`).toBe(1);
    }
    for (const p of PARTNERS) expect(await invariantViolations(te, p), p).toEqual([]);
  }, 60_000);

  test("a long write transaction on one instance: the other waits for the partner's lock without freezing, and never answers 500", async () => {
    const s = setups[BULK]!;
    const other = setups["twin-b"]!;
    const P = q(s.partnerId);
    const opToken = await tokens.of("op");
    /** A's commit of `rows` imported rows (one transaction), with B's requests sent while it runs. */
    const overlap = async (rows: number, tag: string) => {
      const form = new FormData();
      form.set("file", new File([`name,location\n${Array.from({ length: rows }, (_, i) => `bulk ${tag} ${i},${s.originCode}`).join("\n")}\n`], "bulk.csv", { type: "text/csv" }));
      const batch = await send(A.url, "POST", `/api/assets/imports/csv/validate${P}`, { token: opToken, form });
      expect(batch.status, batch.text).toBe(201);
      let committedAt = 0;
      const commit = send(A.url, "POST", `/api/assets/imports/${batch.body.id}/commit${P}`, { token: await tokens.of("boss"), key: `bulk-${tag}`, body: {} }).then((r) => {
        committedAt = performance.now();
        return r;
      });
      await Bun.sleep(150);
      // B writes to the partner A is committing to: it has to wait for the database's write lock.
      const writeOnB = async () => send(B.url, "POST", `/api/assets/locations${P}`, { token: await tokens.of("boss"), key: `while-${tag}`, body: { name: `During ${tag}`, kind: "room" } });
      const waiting = writeOnB();
      await Bun.sleep(100);
      // Meanwhile B answers everything else at once: its health, a read and another partner's write.
      const sentAt = performance.now();
      const timed = async (r: Promise<Reply>) => {
        const res = await r;
        return { res, ms: performance.now() - sentAt };
      };
      const others = await Promise.all([
        timed(send(B.url, "GET", "/healthz", { token: opToken })),
        timed(send(B.url, "GET", `/api/assets/owned${q(other.partnerId)}`, { token: opToken })),
        timed(send(B.url, "POST", `/api/assets/assets${q(other.partnerId)}`, { token: opToken, key: `elsewhere-${tag}`, body: { name: `Elsewhere ${tag}`, ownership: "owned", locationId: other.originId } })),
      ]);
      expect(others.map((o) => o.res.status)).toEqual([200, 200, 201]);
      const done = await commit;
      expect(done.status, done.text).toBe(200);
      expect(done.body.result.itemsCreated).toBe(rows);
      return { rows, remaining: committedAt - sentAt, others, waiting: await waiting, writeOnB };
    };
    // A few thousand rows take about a second or two; a fast machine gets a bigger file.
    const sizes = te.driver === "libsql" ? [1000, 3000] : [5000, 10_000];
    let run = await overlap(sizes[0]!, "first");
    if (run.remaining < 600) run = await overlap(sizes[1]!, "second");
    const { remaining, others, waiting } = run;
    expect(remaining, "the import was too small to overlap").toBeGreaterThan(600);
    // A's commit still had most of its time to go; a B whose event loop stood still in SQLite's
    // busy handler would have answered all three only as it ended.
    for (const t of others) expect(t.ms, `B answered after ${Math.round(t.ms)} ms, A committed ${Math.round(remaining)} ms after they were sent`).toBeLessThan(remaining / 2);
    // The waiting write applied once A let go, unless A held the file past the 5 s busy timeout (a loaded
    // machine): then it is 503 partner_unavailable with Retry-After, nothing applied, and its retry applies.
    if (waiting.status === 503) {
      expect(waiting.body.code).toBe("partner_unavailable");
      expect(waiting.headers.get("retry-after")).toBe("5");
      counts.lockedOut++;
      const retried = await run.writeOnB();
      expect(retried.status, retried.text).toBe(201);
      expect(retried.headers.get("idempotency-replayed")).toBeNull();
    } else expect(waiting.status, waiting.text).toBe(201);
    counts.longTx = `${run.rows} rows committed in ${Math.round(remaining + 250)} ms while the other answered in ≤ ${Math.round(Math.max(...others.map((o) => o.ms)))} ms`;
    for (const p of [BULK, other.partnerId]) expect(await invariantViolations(te, p), p).toEqual([]);
  }, 90_000);

  test("every job run on both at once: a partner's job never runs on both at the same time, the later one is skipped", async () => {
    await drain();
    // Deliveries that keep each partner's webhook run busy for a while: a slow receiver and five events per partner.
    for (const p of PARTNERS) {
      for (let i = 0; i < 5; i++) {
        const res = await send(A.url, "POST", `/api/assets/assets${q(p)}`, { token: await tokens.of("op"), key: `lease-${i}`, body: { name: `lease ${i}`, ownership: "owned", locationId: setups[p]!.originId } });
        expect(res.status, res.text).toBe(201);
      }
    }
    const before = receiver.received.length;
    receiverDelay = 60;
    const [fromA, fromB] = await Promise.all([jobPass(A, "all"), jobPass(B, "all")]);
    receiverDelay = 0;
    const all = [...fromA.map((o) => ({ ...o, on: "A" })), ...fromB.map((o) => ({ ...o, on: "B" }))];
    counts.jobRuns += all.length;
    counts.skipped += all.filter((o) => o.status === "skipped").length;
    expect(all.filter((o) => o.status === "failed")).toEqual([]);
    const key = (o: Outcome) => `${o.job} ${o.partnerId}`;
    // Every partner's every job was attempted by both: once run, the other time run again after it, skipped, or idle
    // (nothing left due); or idle on both when the job had nothing due (its probe takes no lease and records nothing).
    for (const k of new Set(all.map(key))) {
      const runs = all.filter((o) => key(o) === k);
      expect(runs.map((r) => r.on).sort(), k).toEqual(["A", "B"]);
      if (runs.every((r) => r.status === "idle")) continue;
      expect(runs.filter((r) => r.status === "succeeded").length, k).toBeGreaterThanOrEqual(1);
    }
    // The webhook runs outlast the other instance's arrival: one ran, the other was skipped, naming the holder; or,
    // when the other arrived after the run had delivered everything (a slow machine), its probe found nothing due
    // (idle, no lease taken and nothing recorded), or its probe said due (a probe may, never the reverse) and its
    // run, under the lease the first had released, found nothing to send (processed 0). Never two runs at once:
    // the deliveries below are each sent once, one at a time per endpoint.
    let skippedWebhooks = 0;
    for (const p of PARTNERS) {
      const runs = all.filter((o) => o.job === "webhooks" && o.partnerId === p);
      const statuses = runs.map((r) => r.status).sort();
      const ranAfterTheOther = statuses.join() === "succeeded,succeeded" && runs.some((r) => r.processed === 0) && runs.some((r) => r.processed > 0);
      if (!ranAfterTheOther) expect([["skipped", "succeeded"], ["idle", "succeeded"]], `${p}: ${statuses.join(", ")}`).toContainEqual(statuses);
      const skipped = runs.find((r) => r.status === "skipped");
      if (skipped) {
        skippedWebhooks++;
        expect(skipped.detail).toMatch(/^lease held by .+:\d+:[0-9a-f]{8} until /);
      }
      // The outcomes that ran or were skipped are in the partner's own job_runs, whichever process wrote them.
      const recorded = await sqlOf(te, p, `SELECT status FROM job_runs WHERE id IN (?, ?) ORDER BY status`, runs.map((r) => r.runId));
      expect(recorded.map((r) => r.status)).toEqual(statuses.filter((x) => x !== "idle"));
    }
    // The lease was contended at least once: the exclusion itself was exercised.
    expect(skippedWebhooks).toBeGreaterThanOrEqual(1);
    const sent = receiver.received.slice(before);
    expect(sent.length).toBe(PARTNERS.length * ENDPOINTS_PER_PARTNER * 5);
    for (const path of new Set(sent.map((r) => r.path))) expect(overlapping(sent.filter((r) => r.path === path)), path).toEqual([]);
    expect(new Set(sent.map((r) => r.deliveryId)).size).toBe(sent.length);
  }, 60_000);

  test("an access change through one instance, or beside both, is honoured by both on their next request", async () => {
    const p = "twin-b";
    const P = q(p);
    const s = setups[p]!;
    const check = async (server: ServerProcess, user: string, want: number, code?: string) => {
      counts.accessChecks++;
      const res = await send(server.url, "POST", `/api/assets/assets${P}`, {
        token: await tokens.of(user),
        key: `access-${counts.accessChecks}`,
        body: { name: `access ${counts.accessChecks}`, ownership: "owned", locationId: s.originId },
      });
      expect(res.status, `${server.name} ${user}: ${res.text}`).toBe(want);
      if (code) expect(res.body.code).toBe(code);
    };
    // Both have the operator's access memoised.
    await check(A, "op", 201);
    await check(B, "op", 201);
    await check(A, "viewer", 403, "capability_denied");
    await check(B, "viewer", 403, "capability_denied");

    // Through A: operators lose ams_operate. B's very next request knows.
    const narrowed = await send(A.url, "PUT", `/api/assets/capabilities/ams_operate${P}`, { token: await tokens.of("boss"), key: "caps-1", body: { roleDefaults: ["manager", "admin", "owner"], grants: [] } });
    expect(narrowed.status, narrowed.text).toBe(200);
    await check(B, "op", 403, "capability_denied");
    await check(A, "op", 403, "capability_denied");
    // Through B: restored, and A's very next request knows.
    const restored = await send(B.url, "PUT", `/api/assets/capabilities/ams_operate${P}`, { token: await tokens.of("boss"), key: "caps-2", body: { roleDefaults: ["operator", "manager", "admin", "owner"], grants: [] } });
    expect(restored.status, restored.text).toBe(200);
    await check(A, "op", 201);
    await check(B, "op", 201);

    // Beside both (`npm run tenant -- member …`): the viewer becomes an operator.
    await upsertMember(te.deps, { partnerId: p, userId: "viewer", role: "operator" });
    await check(A, "viewer", 201);
    await check(B, "viewer", 201);
    // `npm run tenant -- deactivate-member …`: the operator is out, on both, and /api/me says so.
    await deactivateMember(te.deps, p, "op");
    await check(B, "op", 403, "partner_access_denied");
    await check(A, "op", 403, "partner_access_denied");
    for (const server of [A, B]) {
      const me = await send(server.url, "GET", "/api/me", { token: await tokens.of("op") });
      expect(me.body.partners.map((x: { partnerId: string }) => x.partnerId), server.name).toEqual(["twin-a", BULK]);
    }
    await upsertMember(te.deps, { partnerId: p, userId: "op", role: "operator" });
    await upsertMember(te.deps, { partnerId: p, userId: "viewer", role: "viewer" });
    await check(A, "op", 201);
    await check(B, "viewer", 403, "capability_denied");
  }, 60_000);

  test("a read one instance answered is fresh on its next request after the other wrote: its data version, tags and exact totals follow the other's commits", async () => {
    const p = "twin-a";
    const P = q(p);
    const token = await tokens.of("op");
    const list = () => send(B.url, "GET", `/api/assets/owned${P}`, { token });
    const first = await list();
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag");
    // Local files carry a strong tag derived from the data version; a libSQL server cannot prove freshness and sends none.
    expect(tag === null).toBe(te.driver === "libsql");
    if (tag) expect((await send(B.url, "GET", `/api/assets/owned${P}`, { token, headers: { "if-none-match": tag } })).status).toBe(304);
    const created = await send(A.url, "POST", `/api/assets/assets${P}`, { token, key: "fresh-1", body: { name: "fresh 1", ownership: "owned", locationId: setups[p]!.originId } });
    expect(created.status, created.text).toBe(201);
    const after = await send(B.url, "GET", `/api/assets/owned${P}`, { token, headers: tag ? { "if-none-match": tag } : {} });
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(first.body.total + 1);
    expect(after.body.items[0].id).toBe(created.body.id);
    counts.freshReads++;
  }, 30_000);

  test(`webhooks: both deliver again and again while ${EVENTS} events are written through both; each event reaches each endpoint once, in order`, async () => {
    await drain();
    const before = receiver.received.length;
    let writing = true;
    const passes = (server: ServerProcess) =>
      (async () => {
        while (writing) {
          for (const o of await jobPass(server, "webhooks")) {
            counts.jobPasses++;
            if (o.status === "skipped") counts.passesSkipped++;
            expect(o.status).not.toBe("failed");
          }
        }
      })();
    const writeRace = async () => {
      for (let i = 0; i < EVENTS; i += 4) {
        await Promise.all(
          [0, 1, 2, 3].map(async (j) => {
            const n = i + j;
            if (n >= EVENTS) return;
            const p = PARTNERS[n % PARTNERS.length]!;
            const res = await send((n >> 1) % 2 ? B.url : A.url, "POST", `/api/assets/assets${q(p)}`, {
              token: await tokens.of("op"),
              key: `race-${n}`,
              body: { name: `race ${n}`, ownership: "owned", locationId: setups[p]!.originId },
            });
            expect(res.status, res.text).toBe(201);
            counts.events++;
          }),
        );
      }
    };
    const delivering = [passes(A), passes(B)];
    try {
      await writeRace();
    } finally {
      writing = false;
      await Promise.allSettled(delivering);
    }
    await Promise.all(delivering);
    await drain();

    const got = receiver.received.slice(before);
    counts.deliveries += got.length;
    for (const p of PARTNERS) {
      const events = (await sqlOf(te, p, "SELECT id, kind FROM outbox WHERE json_extract(payload, '$.data.movement.itemId') IN (SELECT id FROM items WHERE name LIKE 'race %') ORDER BY rowid")).filter(
        (e) => (WEBHOOK_EVENTS as readonly string[]).includes(String(e.kind)),
      );
      expect(events.length).toBe(Array.from({ length: EVENTS }, (_, n) => PARTNERS[n % PARTNERS.length]).filter((x) => x === p).length);
      for (const path of Object.values(setups[p]!.endpoints)) {
        const atPath = got.filter((r) => r.path === path);
        // Once each, under one delivery id, in commit order, never two at once, each signed.
        expect(atPath.map((r) => r.json.id), path).toEqual(events.map((e) => e.id));
        expect(new Set(atPath.map((r) => r.deliveryId)).size, path).toBe(atPath.length);
        expect(overlapping(atPath), path).toEqual([]);
        expect(atPath.filter((r) => !verifySignature(setups[p]!.signingSecrets[path]!, r)).length).toBe(0);
      }
    }
    for (const p of PARTNERS) expect(await invariantViolations(te, p), p).toEqual([]);
  }, 90_000);
});

describe.skipIf(process.env.TEST_DB_DRIVER === "libsql")("another process holding a partner file's write lock (an operator's shell, the CLI)", () => {
  test("a write waits for it without stalling the event loop, gives up past WRITE_LOCK_TIMEOUT_MS with 503 service_unavailable (nothing applied), and goes through once it is free", async () => {
    const kit = await partnerKit({ envVars: { TENANT_DB_URL: "file:{TENANTS_DIR}/{partnerId}.db", WRITE_LOCK_TIMEOUT_MS: "400" }, users: { boss: "admin" } });
    try {
      const file = join(kit.env.dir, `${kit.partnerId}.db`);
      // A shell's BEGIN IMMEDIATE, held for 1.2 s.
      const shell = Bun.spawn(
        [process.execPath, "-e", `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(file)}); db.run("BEGIN IMMEDIATE"); console.log("locked"); await Bun.sleep(1200); db.run("COMMIT"); console.log("released");`],
        { stdout: "pipe", stderr: "inherit" },
      );
      const lines = shell.stdout.pipeThrough(new TextDecoderStream()).getReader();
      expect((await lines.read()).value).toContain("locked");
      const body = { name: "Held up", kind: "room" };
      const started = performance.now();
      const write = kit.post("/locations", body, { idem: "held-up" }).then((r) => ({ r, ms: performance.now() - started }));
      await Bun.sleep(50);
      // The process keeps answering while the write waits: a busy handler would have frozen it
      // (this very test included) for the whole wait, and the health check would come after the write.
      const health = await kit.env.call("GET", "/healthz");
      const healthAt = performance.now() - started;
      const { r: refused, ms } = await write;
      expect(health.status).toBe(200);
      expect(healthAt).toBeLessThan(ms);
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.body.code, kit.env.logLines.filter((l) => l.includes("unavailable")).join("\n")).toBe("service_unavailable");
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(ms).toBeGreaterThanOrEqual(380);
      expect(ms).toBeLessThan(1200);
      await shell.exited;
      // Free again: the same request with the same key applies now, once.
      const done = await kit.post("/locations", body, { idem: "held-up" });
      expect(done.status, JSON.stringify(done.body)).toBe(201);
      expect(await kit.read((q) => q.all<{ n: number }>(`SELECT count(*) AS n FROM locations WHERE name = 'Held up'`))).toEqual([{ n: 1 }]);
      // A lock held by another process is no outage: nothing was logged as a database failure.
      expect(kit.env.logLines.filter((l) => l.includes("partner database unavailable"))).toEqual([]);
    } finally {
      kit.close();
    }
  }, 30_000);
});
