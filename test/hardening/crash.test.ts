// hardening/crash: a real server process (`bun run src/main.ts`, Bun.serve, partner
// databases in real files) takes bursts of keyed writes across three partners and
// every kind of chain the workload knows (assets, checkouts, shipments packed and
// dispatched, CSV imports committed, finance acquisitions proposed and approved,
// planning work batches), with the webhook job delivering to a loopback receiver at
// the same time, and is killed with SIGKILL at a seeded random point of each burst,
// once more in the middle of a webhook delivery pass. After every restart on the
// same files it proves:
// - no half-transaction: integrity_check and foreign_key_check on every partner file,
//   and the domain's invariants as SQL (test/hardening/workload.ts invariantViolations:
//   availability derived from blocks, every movement with its one outbox row, custody,
//   transit, finance and import records consistent);
// - every acknowledged write is there; re-sending every request of the burst with its
//   key replays each acknowledged answer byte for byte, and an unanswered one either
//   replays (it had committed) or applies now, and every chain's records exist exactly
//   once;
// - once the webhook job runs again (also after the kill mid-delivery), every outbox
//   event reaches each endpoint, under one delivery id per (endpoint, event): a delivery
//   re-sent under its id after a kill between send and record is counted (contract §10
//   allows it; receivers drop replays), a second delivery id would be a defect.
// Local files only (the crash is the server's and the files are its own); the
// several-instances suite covers the libSQL server.
// Settings: CRASH_KILLS (default 5; 20 with HARDENING_DEPTH=deep), CRASH_CHAINS (chains
// of each kind per partner and burst, default 2; 4 deep), CRASH_SEED.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createTestEnv, type TestEnv } from "../harness.ts";
import { startReceiver, verifySignature, type Receiver } from "../fakes/webhook-receiver.ts";
import { errorLines, serverEnv, startServerProcess, type ServerProcess } from "./server-process.ts";
import {
  CHAIN_KINDS,
  USERS,
  WEBHOOK_EVENTS,
  Tokens,
  chainRecordCounts,
  invariantViolations,
  makeChain,
  namedRows,
  newStats,
  runChain,
  send,
  setUpPartner,
  sqlOf,
  undeliveredEvents,
  type Chain,
  type PartnerSetup,
} from "./workload.ts";

const DEEP = process.env.HARDENING_DEPTH === "deep";
const KILLS = Number(process.env.CRASH_KILLS ?? (DEEP ? 20 : 5));
const CHAINS = Number(process.env.CRASH_CHAINS ?? (DEEP ? 4 : 2));
const SEED = Number(process.env.CRASH_SEED ?? 20);
const PARTNERS = ["crash-a", "crash-b", "crash-c"];
const ENDPOINTS_PER_PARTNER = 2;
/** The burst after which the server is also killed in the middle of a webhook delivery pass. */
const DELIVERY_KILL_ROUND = Math.min(2, KILLS - 1);

/** mulberry32: a small seeded generator, so a failing run can be repeated with CRASH_SEED. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = seeded(SEED);

const secrets = {
  dataKek: randomBytes(32).toString("base64"),
  webhookKey: randomBytes(32).toString("base64"),
  schedulerSecret: randomBytes(24).toString("base64url"),
};
let te: TestEnv;
let receiver: Receiver;
let receiverDelay = 0;
let tokens: Tokens;
let server: ServerProcess;
let starts = 0;
const setups: Record<string, PartnerSetup> = {};
const stats = newStats();
const counts = { kills: 0, deliveryKills: 0, invariantChecks: 0, chains: 0, jobPasses: 0 };

async function start(): Promise<void> {
  server = await startServerProcess(serverEnv(te, secrets), { name: `start ${++starts}`, onLog: (l) => te.logLines.push(l) });
}

async function kill(): Promise<void> {
  await server.kill("SIGKILL");
  counts.kills++;
}

/** One pass of the webhook job through the scheduler route of the running server. */
const webhookPass = (signal?: AbortSignal) =>
  send(server.url, "POST", "/api/planning/scheduler/run", { token: secrets.schedulerSecret, body: { job: "webhooks" }, signal });

beforeAll(async () => {
  // Real files even when the suites run on the libSQL driver: the crash is of the process that owns them.
  te = await createTestEnv({ TENANT_DB_URL: "file:{TENANTS_DIR}/{partnerId}.db", DATA_KEK: secrets.dataKek, AMS_WEBHOOK_ENCRYPTION_KEY: secrets.webhookKey, SCHEDULER_SECRET: secrets.schedulerSecret });
  te.secrets.add("configured secret", secrets.schedulerSecret);
  receiver = startReceiver({ delayMs: () => receiverDelay });
  tokens = new Tokens(te);
  for (const p of PARTNERS) {
    await te.provision(p);
    for (const [user, role] of Object.entries(USERS)) await te.member(p, user, role);
  }
  await start();
  for (const p of PARTNERS) {
    setups[p] = await setUpPartner(server.url, tokens, te, p, { receiverBase: `http://127.0.0.1:${receiver.port}`, endpoints: ENDPOINTS_PER_PARTNER });
  }
}, 60_000);

afterAll(async () => {
  await server?.kill("SIGKILL");
  receiver?.stop();
  te?.close();
});

/** Every acknowledged step's record is in the files, in the state its answer reported. */
async function ackedMissing(chain: Chain): Promise<string[]> {
  const out: string[] = [];
  const one = async (sql: string, args: unknown[], what: string) => {
    const n = Number((await sqlOf(te, chain.setup.partnerId, sql, args))[0]!.n);
    if (n !== 1) out.push(`${chain.id}: acknowledged ${what} found ${n} times`);
  };
  for (const [label, reply] of Object.entries(chain.first)) {
    const id = reply.body.id as string | undefined;
    if (label.startsWith("create")) await one("SELECT count(*) AS n FROM items WHERE id = ?", [id], `item ${label}`);
    else if (label.startsWith("activate")) await one("SELECT count(*) AS n FROM items WHERE id = ? AND lifecycle = 'active'", [id], `activation ${label}`);
    else if (label === "checkout") await one("SELECT count(*) AS n FROM checkouts WHERE id = ? AND state = 'checked_out'", [id], "checkout");
    else if (label === "shipment") await one("SELECT count(*) AS n FROM shipments WHERE id = ?", [id], "shipment");
    else if (label === "container") await one("SELECT count(*) AS n FROM shipment_containers WHERE id = ?", [id], "container");
    else if (label === "pack") await one("SELECT count(*) AS n FROM (SELECT DISTINCT container_id FROM shipment_items WHERE container_id = ?)", [id], "packing");
    else if (label === "dispatch") await one("SELECT count(*) AS n FROM shipments WHERE id = ? AND status = 'dispatched'", [id], "dispatch");
    else if (label === "validate") await one("SELECT count(*) AS n FROM import_batches WHERE id = ?", [id], "import batch");
    else if (label === "commit") await one("SELECT count(*) AS n FROM import_batches WHERE id = ? AND state = 'committed'", [id], "import commit");
    else if (label === "propose") await one("SELECT count(*) AS n FROM workflow_cases WHERE id = ?", [id], "proposal");
    else if (label === "approve") await one("SELECT count(*) AS n FROM workflow_cases WHERE id = ? AND state = 'completed'", [id], "approval");
    else if (label === "batch") {
      for (const r of reply.body.records as Array<{ id: string }>) await one("SELECT count(*) AS n FROM planning_records WHERE id = ?", [r.id], "work record");
    } else out.push(`${chain.id}: no presence check for ${label}`);
  }
  return out;
}

async function checkInvariants(when: string): Promise<void> {
  for (const p of PARTNERS) {
    counts.invariantChecks++;
    expect(await invariantViolations(te, p), `${p} ${when}`).toEqual([]);
  }
}

/** A burst of chains over every partner, killed once `target` answers have arrived; then restart, checks and the re-send of everything. */
async function burst(round: number): Promise<void> {
  const chains: Chain[] = [];
  for (const p of PARTNERS) for (const kind of CHAIN_KINDS) for (let c = 0; c < CHAINS; c++) chains.push(makeChain(kind, setups[p]!, `r${round}-c${c}`));
  for (let i = chains.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [chains[i], chains[j]] = [chains[j]!, chains[i]!];
  }
  counts.chains += chains.length;
  const total = chains.reduce((a, c) => a + c.steps.length, 0);
  // The kill: a few ms after the n-th request went out, n between a tenth and four fifths of
  // the burst, so it lands anywhere from before a transaction to after its commit and before
  // the answer reached the client.
  const target = Math.max(1, Math.floor(total * (0.1 + 0.7 * rand())));
  const extraMs = rand() * 6;
  let sent = 0;
  let killing: Promise<void> | undefined;
  const onSend = () => {
    if (++sent === target) killing = Bun.sleep(extraMs).then(kill);
  };
  // The webhook job delivers what earlier bursts left while this one writes.
  const job = webhookPass().catch(() => undefined);
  // One step in eight is sent by a client that gives up after 1–5 ms: the server mostly commits it
  // unseen, and it must replay after the restart (the kill alone rarely lands between a commit and
  // its answer).
  const abandonAfter = () => (rand() < 0.125 ? 1 + rand() * 4 : undefined);
  await Promise.all(chains.map((c) => runChain(server.url, tokens, c, stats, { onSend, abandonAfter })));
  await (killing ?? kill());
  await job;
  expect(stats.unexpected, `burst ${round}`).toEqual([]);

  await start();
  // As the crash left them: sound files, and every answered write there.
  await checkInvariants(`after the kill in burst ${round}`);
  const missing = (await Promise.all(chains.map(ackedMissing))).flat();
  expect(missing, `burst ${round}`).toEqual([]);

  // Everything again, with the same keys: replays and late applications, each exactly once.
  await Promise.all(chains.map((c) => runChain(server.url, tokens, c, stats)));
  expect(stats.unexpected, `re-send of burst ${round}`).toEqual([]);
  expect(chains.filter((c) => !c.done).map((c) => c.id)).toEqual([]);
  for (const c of chains) {
    const named = await namedRows(te, c);
    expect(named, c.id).toEqual(Object.fromEntries(c.names.map((nm) => [nm, 1])));
    const records = await chainRecordCounts(te, c);
    expect(records, c.id).toEqual(Object.fromEntries(Object.keys(records).map((k) => [k, 1])));
  }
  await checkInvariants(`after the re-send of burst ${round}`);
}

/** Kills the server while the webhook job is sending to a slow receiver, after `after` deliveries arrived. */
async function killMidDelivery(after: number): Promise<void> {
  const before = receiver.received.length;
  receiverDelay = 25;
  const pass = webhookPass().catch(() => undefined);
  const deadline = Date.now() + 20_000;
  while (receiver.received.length < before + after && Date.now() < deadline) await Bun.sleep(5);
  expect(receiver.received.length, "deliveries under way before the kill").toBeGreaterThanOrEqual(before + after);
  await kill();
  counts.deliveryKills++;
  await pass;
  receiverDelay = 0;
  await start();
  await checkInvariants("after the kill mid-delivery");
}

/** Runs the webhook job until every endpoint has seen the whole outbox and every delivery succeeded. */
async function drainWebhooks(): Promise<void> {
  for (let pass = 0; pass < 40; pass++) {
    const res = await webhookPass();
    counts.jobPasses++;
    expect(res.status, res.text).toBe(200);
    const skipped = (res.body.outcomes as Array<{ status: string; detail?: string; partnerId: string }>).filter((o) => o.status !== "succeeded" && o.status !== "idle");
    expect(skipped, "webhook job outcomes after the restart").toEqual([]);
    if ((await undeliveredEvents(te, PARTNERS)) === 0) return;
  }
  throw new Error("the outbox was not drained in 40 passes");
}

test(
  `${KILLS} SIGKILLs at random points of write bursts and one mid-delivery: no half-transaction, acknowledged writes replay byte for byte, every chain exactly once, every event delivered once per endpoint`,
  async () => {
    for (let round = 0; round < KILLS; round++) {
      await burst(round);
      if (round === DELIVERY_KILL_ROUND) await killMidDelivery(3 + Math.floor(rand() * 10));
    }
    await drainWebhooks();

    // The receiver's view: every event of every partner at each of its endpoints, one delivery id per (endpoint, event).
    for (const p of PARTNERS) {
      const events = (await sqlOf(te, p, "SELECT id, kind FROM outbox")).filter((e) => (WEBHOOK_EVENTS as readonly string[]).includes(String(e.kind)));
      const endpointRows = await sqlOf(te, p, "SELECT id FROM webhook_endpoints");
      for (const { id: endpointId } of endpointRows) {
        const path = setups[p]!.endpoints[String(endpointId)]!;
        const got = receiver.received.filter((r) => r.path === path);
        const idsByEvent = new Map<string, Set<string>>();
        for (const r of got) idsByEvent.set(String(r.json.id), (idsByEvent.get(String(r.json.id)) ?? new Set()).add(r.deliveryId));
        const missing = events.filter((e) => !idsByEvent.has(String(e.id))).map((e) => `${e.kind} ${e.id}`);
        expect(missing, `${p} endpoint ${path}: events never delivered`).toEqual([]);
        const second = [...idsByEvent].filter(([, ids]) => ids.size > 1).map(([ev, ids]) => `${ev}: ${[...ids].join(", ")}`);
        expect(second, `${p} endpoint ${path}: events delivered under a second delivery id`).toEqual([]);
        expect(idsByEvent.size, `${p} endpoint ${path}: deliveries of events that are not in the outbox`).toBe(events.length);
        // Every request, re-sent ones included, is signed with that endpoint's secret (contract §10).
        const secret = setups[p]!.signingSecrets[path]!;
        expect(got.filter((r) => !verifySignature(secret, r)).map((r) => r.deliveryId)).toEqual([]);
      }
    }
    const distinctDeliveries = new Set(receiver.received.map((r) => `${r.path} ${r.deliveryId}`)).size;
    const resent = receiver.received.length - distinctDeliveries;

    // Nothing answered 5xx and nothing logged an error but the kills' own traces.
    expect(errorLines(te.logLines)).toEqual([]);

    console.log(
      `hardening/crash: ${counts.kills} SIGKILLs (${counts.deliveryKills} mid-delivery), seed ${SEED}, ${PARTNERS.length} partners, ` +
        `${counts.chains} chains, ${stats.sent.toLocaleString("en")} requests (${stats.acked} first answers, ${stats.replayedAcked} replayed byte for byte, ` +
        `${stats.abandoned} abandoned by their client, ${stats.replayedUnanswered} unanswered but committed then replayed, ${stats.appliedLate} applied on the re-send), ` +
        `${counts.invariantChecks} invariant checks, ${distinctDeliveries} deliveries to ${PARTNERS.length * ENDPOINTS_PER_PARTNER} endpoints ` +
        `(${resent} re-sent under their own id after a kill, 0 second delivery ids), ${counts.jobPasses} drain passes`,
    );
  },
  DEEP ? 1_800_000 : 120_000,
);
