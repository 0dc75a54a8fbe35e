// npm run bench [-- --quick] [--rounds 3] [--duration 5] [--warmup 2] [--only owned,create-1]
//               [--items 10000] [--views 10000] [--churn 1000] [--no-large] [--no-readme] [--keep] [--profile dir]
//
// Issue 22: each route against its honest reference, measured from outside with wrk.
// Seeds a temporary TENANTS_DIR through the service code, captures from the service
// the statements each measured route runs (scripts/bench/capture.ts), starts the real
// app and the references (scripts/bench/reference.ts: bare Bun.serve over bun:sqlite on
// the same files, the same SQL, the same memoised count, the same JSON bytes; writes
// replay the service's statements in one BEGIN IMMEDIATE … COMMIT) in two child
// processes started once, checks that each reference answers what its service answers,
// then loads service and reference in turns (A B A B A B) and reports medians and ratios.
// The write scenarios run again with two instances of each side on one port
// (SO_REUSEPORT), and the report says how writers over 20 partners scale against one.
// Then the large-work figures: CSV import, EPCIS export, snapshot, memory across 1,000
// partners, a partner's footprint and a pass of the scheduled jobs.
// Needs wrk (`apt-get install -y wrk`). Not part of npm test (test/bench-references.test.ts is).
import { mkdtempSync, rmSync, writeFileSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/env.ts";
import { createDeps, type Deps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { mintToken } from "../src/platform/auth/mint.ts";
import { createJobRegistry } from "../src/jobs/registry.ts";
import { runJob } from "../src/jobs/run-job.ts";
import { setStatementLog } from "../src/platform/db/bun-sqlite.ts";
import { provisionPartners, seedSavedViews } from "./bench/seed.ts";
import { assetBody, createAssetRoute, ownedRoute, seedItems } from "./bench/items.ts";
import { profileAppServersInto, startServer, type ServerChild } from "./bench/child.ts";
import { epcisRoute, measureEpcisExport, seedEpcisEvents } from "./bench/epcis.ts";
import { runWrk, wrkMissing, type LoadResult, type WriteLoad } from "./bench/wrk.ts";
import { cpuBusy, cpuMark, foreignShare, serverCpuMs } from "./bench/cpu.ts";
import { machine, renderReport, writeReadme, type LargeTable, type MemorySample, type Row, type Sample } from "./bench/report.ts";
import { benchImport, importRoutes, renderImportBench } from "./bench/imports.ts";
import { listReferenceOf, writeReferenceOf, withoutIdsAndTimes, withoutTime, type ListScenarioDef } from "./bench/specs.ts";
import type { ReferenceSpecs } from "./bench/reference.ts";

// ---- options ----------------------------------------------------------------

function parseArgs(argv: string[]) {
  const o = {
    rounds: 3,
    duration: 5,
    warmup: 2,
    threads: 2,
    churn: 1000,
    items: 10_000,
    newEvery: 5,
    views: 10_000,
    reservations: 1000,
    projects: 1000,
    only: undefined as string[] | undefined,
    large: true,
    readme: true,
    keep: false,
    quick: false,
    profile: undefined as string | undefined,
  };
  const num = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a non-negative number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--quick":
        Object.assign(o, { quick: true, rounds: 1, duration: 1, warmup: 0.5, churn: 100, items: 1000, views: 500, reservations: 100, projects: 100 });
        break;
      case "--rounds": o.rounds = Math.max(1, Math.floor(num("rounds", value()))); break;
      case "--duration": o.duration = Math.max(1, num("duration", value())); break;
      case "--warmup": o.warmup = num("warmup", value()); break;
      case "--threads": o.threads = Math.max(1, Math.floor(num("threads", value()))); break;
      case "--churn": o.churn = Math.floor(num("churn", value())); break;
      case "--items": o.items = Math.floor(num("items", value())); break;
      case "--views": o.views = Math.floor(num("views", value())); break;
      case "--only": o.only = (value() ?? "").split(",").filter(Boolean); break;
      case "--no-large": o.large = false; break;
      case "--no-readme": o.readme = false; break;
      case "--keep": o.keep = true; break;
      case "--profile": o.profile = value(); if (!o.profile) throw new Error("--profile needs a directory"); break;
      case "--help":
        console.log(
          "npm run bench -- [--quick] [--rounds n] [--duration s] [--warmup s] [--threads n] [--only key,key] [--items n] [--views n] [--churn partners] [--no-large] [--no-readme] [--keep] [--profile dir]\n" +
            "scenario keys for --only: owned, views, checkouts, projects, owned-304, healthz, create-1, create-20, create-1x2, create-20x2, view-create (the README is updated only by a full run)\n" +
            "--profile dir: the app servers write Bun CPU profiles there (.cpuprofile and .md) when they stop; measure with --only",
        );
        process.exit(0);
      default:
        throw new Error(`unknown option ${flag} (try --help)`);
    }
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
profileAppServersInto(opts.profile);
const t0 = performance.now();
const log = (msg: string) => console.error(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${msg}`);
const timed = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const r = await fn();
  log(`${what} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  return r;
};
const n = (x: number) => x.toLocaleString("en-US");

const missing = wrkMissing();
if (missing) {
  console.error(missing);
  process.exit(2);
}

// ---- set-up -------------------------------------------------------------------

const USER = "bench-user";
const SECRET = "bench-secret-for-loopback-only-0123456789";
const pad = (i: number, w: number) => String(i).padStart(w, "0");
const PARTNERS = Array.from({ length: 20 }, (_, i) => `p${pad(i, 2)}`);
const LIST_PARTNER = PARTNERS[0]!;
/** The partner of the single-partner writes (the lists' partner keeps its rows). */
const WRITE_PARTNER = PARTNERS[1]!;
const EPCIS_PARTNER = "x00";
const EPCIS_EVENTS = 10_000;
const CHURN = Array.from({ length: opts.churn }, (_, i) => `c${pad(i, 4)}`);
const DUE_PARTNERS = CHURN.slice(0, 10);

const dir = mkdtempSync(join(tmpdir(), "bench-"));
const benchEnv: Record<string, string> = {
  NODE_ENV: "development",
  TENANTS_DIR: dir,
  DASHBOARD_JWT_SECRET: SECRET,
  DATA_KEK: Buffer.alloc(32, 7).toString("base64"),
  RATE_LIMIT_PER_MINUTE: "0",
  JOBS: "off",
  LOG_LEVEL: "silent",
};
const config = loadConfig(benchEnv);
const ORIGIN = "http://bench.local";
const children: ServerChild[] = [];
let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(children.splice(0).map((c) => c.stop()));
  if (!opts.keep) rmSync(dir, { recursive: true, force: true });
}
process.on("SIGINT", () => void cleanup().finally(() => process.exit(130)));

interface Seeded {
  locations: Map<string, string>;
  epcisWindow?: { from: string; to: string };
  /** Provisioning of the churn partners: ms per partner (with its member). */
  provisionMs: number;
}

async function seedAll(deps: Deps, token: string): Promise<Seeded> {
  log(`seeding ${dir}`);
  if (!ownedRoute() || !createAssetRoute()) throw new Error("GET /owned and POST /assets must be mounted");
  await timed(`provisioned ${PARTNERS.length} partners`, () => provisionPartners(deps, PARTNERS, USER, "admin"));
  await timed(`created ${n(opts.views)} saved views on ${LIST_PARTNER}`, () => seedSavedViews(deps, LIST_PARTNER, USER, opts.views));
  const items = await timed(`created a location per partner and ${n(opts.items)} items on ${LIST_PARTNER} (every ${opts.newEvery}th new)`, () =>
    seedItems(deps, PARTNERS, LIST_PARTNER, USER, opts.items, opts.newEvery),
  );
  if (!items.ok) throw new Error(items.reason);
  const app = createApp(deps);
  const post = async (path: string, body: unknown, key: string) => {
    const res = await app.fetch(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(body),
      }),
    );
    if (res.status !== 201) throw new Error(`seeding ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as { id: string };
  };
  await timed(`created ${n(opts.reservations)} reservations (checkouts) on ${LIST_PARTNER} through POST /reservations`, async () => {
    const ids = (await deps.tenancy.acquire(LIST_PARTNER).then(async (t) => {
      try {
        return (await t.db.rawRead(`SELECT id FROM items ORDER BY id LIMIT ${opts.reservations}`)) as Array<{ id: string }>;
      } finally {
        deps.tenancy.release(t);
      }
    })).map((r) => r.id);
    const day = 86_400_000;
    for (let i = 0; i < ids.length; i++) {
      const startsAt = new Date(Date.now() + day * (1 + (i % 30))).toISOString();
      const endsAt = new Date(Date.parse(startsAt) + day).toISOString();
      await post(`/api/assets/reservations?partnerId=${LIST_PARTNER}`, { itemId: ids[i], holder: { kind: "user", id: USER }, startsAt, endsAt }, `seed-r-${i}`);
    }
  });
  await timed(`created ${n(opts.projects)} projects on ${LIST_PARTNER} through POST /projects`, async () => {
    for (let i = 0; i < opts.projects; i++) {
      await post(`/api/planning/projects?partnerId=${LIST_PARTNER}`, { name: `Bench project ${i}`, timeZone: "Europe/Berlin" }, `seed-p-${i}`);
    }
  });
  let epcisWindow: Seeded["epcisWindow"];
  if (opts.large && epcisRoute()) {
    await provisionPartners(deps, [EPCIS_PARTNER], USER, "admin");
    epcisWindow = await timed(`seeded ${n(EPCIS_EVENTS)} movements on ${EPCIS_PARTNER}`, () => seedEpcisEvents(deps, EPCIS_PARTNER, USER, EPCIS_EVENTS));
  }
  const p0 = performance.now();
  await timed(`provisioned ${CHURN.length} churn partners with a member`, () => provisionPartners(deps, CHURN, USER, "admin"));
  const provisionMs = CHURN.length > 0 ? (performance.now() - p0) / CHURN.length : Number.NaN;
  return { locations: items.locations, epcisWindow, provisionMs };
}

// ---- scenarios ---------------------------------------------------------------

interface Scenario {
  key: string;
  label: string;
  /** Service path (with query) and reference path. */
  service: string;
  reference: string;
  referenceLabel: string;
  connections: number;
  /** Extra headers of both (If-None-Match). */
  headers?: Record<string, string>;
  expectStatus?: number;
  /** A write: Lua-driven unique keys and tags. */
  write?: Omit<WriteLoad, "path" | "run"> & { servicePath: string; referencePath: string };
  /** Processes of each side on one port (SO_REUSEPORT); default 1. */
  instances?: number;
}

const LISTS: Array<{ key: string; label: string; def: ListScenarioDef }> = [
  {
    key: "owned",
    label: "`GET /api/assets/owned?condition=new`",
    def: { path: `/api/assets/owned?partnerId=${LIST_PARTNER}&limit=50&condition=new`, partnerId: LIST_PARTNER, dto: "item" },
  },
  { key: "views", label: "`GET /api/assets/saved-views`", def: { path: `/api/assets/saved-views?partnerId=${LIST_PARTNER}&limit=50`, partnerId: LIST_PARTNER, dto: "savedView" } },
  { key: "checkouts", label: "`GET /api/assets/checkouts`", def: { path: `/api/assets/checkouts?partnerId=${LIST_PARTNER}&limit=50`, partnerId: LIST_PARTNER, dto: "checkout" } },
  { key: "projects", label: "`GET /api/planning/projects`", def: { path: `/api/planning/projects?partnerId=${LIST_PARTNER}&limit=50`, partnerId: LIST_PARTNER, dto: "project" } },
];

const TAG = "@@TAG@@";
/** The writes measured again with two instances of each side on one port (keys `<key>x2`). */
const TWO_INSTANCES = ["create-1", "create-20"];

/**
 * Issue 22 item 3: "with writers spread over 20 partners, throughput at least 1.5× the
 * single-partner figure". Throughput over 20 partners ÷ on one partner, for one and for
 * two instances (service, and reference alike), and what the second instance adds.
 */
function writerScaling(rows: Row[]): string[] {
  const rps = (key: string, side: "service" | "reference") => rows.find((r) => r.key === key)?.[side]?.rps ?? Number.NaN;
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "—");
  const ratio = (a: string, b: string) => `service **${f(rps(a, "service") / rps(b, "service"))}**, reference ${f(rps(a, "reference") / rps(b, "reference"))}`;
  const out: string[] = [];
  if (rows.some((r) => r.key === "create-20" && r.service) && rows.some((r) => r.key === "create-1" && r.service)) {
    out.push(`- one instance: ${ratio("create-20", "create-1")}`);
  }
  if (rows.some((r) => r.key === "create-20x2" && r.service) && rows.some((r) => r.key === "create-1x2" && r.service)) {
    out.push(`- two instances on one port: ${ratio("create-20x2", "create-1x2")}`);
  }
  if (out.length === 0) return [];
  if (rows.some((r) => r.key === "create-20x2" && r.service) && rows.some((r) => r.key === "create-1" && r.service)) {
    out.push(`- two instances over 20 partners ÷ one instance on one partner: ${ratio("create-20x2", "create-1")}`);
  }
  for (const [key, what] of [["create-1", "on one partner"], ["create-20", "over 20 partners"]] as const) {
    if (rows.some((r) => r.key === key && r.service) && rows.some((r) => r.key === `${key}x2` && r.service)) {
      out.push(`- two instances ÷ one, ${what}: ${ratio(`${key}x2`, key)}`);
    }
  }
  return ["Writers (`POST /api/assets/assets`, 50 connections) over 20 partners ÷ on one partner, req/s (issue 22 item 3 asks for at least 1.5):", "", ...out];
}

function assetBodyFor(locations: Map<string, string>) {
  return (partnerId: string, tag: string) => JSON.stringify(assetBody(locations.get(partnerId)!, tag));
}
const viewBody = (_partnerId: string, tag: string) => JSON.stringify({ name: `Bench view ${tag}`, surface: "owned", query: { q: "drill", limit: 50 } });

// ---- measurement -------------------------------------------------------------

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** One wrk run, with the server's CPU time per answered request (µs) where /proc tells it. */
type MeasuredRun = LoadResult & { serverCpuUs?: number };

function medianOf(runs: MeasuredRun[]): Sample {
  const cpu = median(runs.map((r) => r.serverCpuUs ?? Number.NaN));
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: Number.isFinite(cpu) ? cpu : undefined,
    bad: runs.reduce((s, r) => s + r.non2xx + r.errors, 0),
    runs: runs.map((r) => Math.round(r.rps)),
  };
}

async function measure(s: Scenario, app: ServerChild, ref: ServerChild, token: string): Promise<Row> {
  const auth = { authorization: `Bearer ${token}`, ...s.headers };
  const run = Date.now().toString(36);
  let seq = 0;
  const one = async (side: "service" | "reference", duration: number) => {
    const server = side === "service" ? app : ref;
    const path = side === "service" ? s.service : s.reference;
    const write = s.write ? { path: side === "service" ? s.write.servicePath : s.write.referencePath, partners: s.write.partners, run: `${run}${side[0]}${seq++}` } : undefined;
    const headers = side === "service" || s.write || s.reference.startsWith("/list") ? auth : {};
    return runWrk({ url: server.origin + path, headers, connections: s.connections, threads: opts.threads, duration, write });
  };
  if (opts.warmup > 0) {
    await one("service", opts.warmup);
    await one("reference", opts.warmup);
  }
  const service: MeasuredRun[] = [];
  const reference: MeasuredRun[] = [];
  let foreign = 0;
  for (let round = 0; round < opts.rounds; round++) {
    for (const side of ["service", "reference"] as const) {
      const server = side === "service" ? app : ref;
      const before = cpuMark(server.pids);
      const serverBefore = serverCpuMs(server.pids);
      const r = await one(side, opts.duration);
      const serverAfter = serverCpuMs(server.pids);
      const after = cpuMark(server.pids);
      // The server's CPU per answered request: a side that answers less while using less CPU waits on something.
      const perRequest = serverBefore !== undefined && serverAfter !== undefined && r.requests > 0 ? ((serverAfter - serverBefore) * 1000) / r.requests : undefined;
      // wrk's own CPU time is this run's, not another process's.
      if (after) after.ownMs += r.cpuMs;
      const share = foreignShare(before, after) ?? 0;
      foreign = Math.max(foreign, share);
      (side === "service" ? service : reference).push({ ...r, serverCpuUs: perRequest });
      log(
        `${s.key} round ${round + 1} ${side}: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms` +
          `${perRequest !== undefined ? `, server CPU ${Math.round(perRequest)} µs per request` : ""}` +
          `${r.non2xx + r.errors > 0 ? `, ${r.non2xx} bad answers, ${r.errors} socket errors` : ""}, others used ${Math.round(share * 100)} % CPU`,
      );
    }
  }
  const a = medianOf(service);
  const b = medianOf(reference);
  return { key: s.key, label: s.label, referenceLabel: s.referenceLabel, connections: s.connections, service: a, reference: b, ratio: a.rps / b.rps, foreign };
}

/** Probes both sides once; the reference must answer what the service answers. */
async function check(s: Scenario, app: ServerChild, ref: ServerChild, token: string): Promise<string | undefined> {
  const auth = { authorization: `Bearer ${token}` };
  if (s.write) return undefined; // checked with the capture (below)
  const a = await fetch(app.origin + s.service, { headers: { ...auth, ...s.headers } });
  const aText = await a.text();
  if (a.status !== (s.expectStatus ?? 200)) return `the service answered ${a.status}: ${aText.slice(0, 200)}`;
  const b = await fetch(ref.origin + s.reference, { headers: auth });
  const bText = await b.text();
  if (b.status !== 200) return `the reference answered ${b.status}: ${bText.slice(0, 200)}`;
  if (s.reference.startsWith("/list") && withoutTime(aText) !== withoutTime(bText)) {
    return `the reference's body differs from the service's (${aText.length} and ${bText.length} bytes)`;
  }
  return undefined;
}

/** A write's check: one request to each side; same status and the same body but for ids and times. */
async function checkWrite(s: Scenario, app: ServerChild, ref: ServerChild, token: string): Promise<string | undefined> {
  const w = s.write!;
  const p = w.partners[0]!;
  const send = async (origin: string, path: string, tag: string) => {
    const res = await fetch(`${origin}${path}?partnerId=${p.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": `check-${tag}`, "x-bench-tag": tag },
      body: p.parts.join(tag),
    });
    return { status: res.status, body: (await res.text()).replaceAll(tag, "<tag>").replaceAll(`check-${tag}`, "<key>") };
  };
  const run = Date.now().toString(36);
  const a = await send(app.origin, w.servicePath, `chk${run}s`);
  const b = await send(ref.origin, w.referencePath, `chk${run}r`);
  if (a.status !== b.status) return `statuses differ: service ${a.status}, reference ${b.status}: ${a.body.slice(0, 200)} / ${b.body.slice(0, 200)}`;
  if (withoutIdsAndTimes(a.body) !== withoutIdsAndTimes(b.body)) return "the reference's answer differs from the service's beyond ids and times";
  return undefined;
}

// ---- large work ---------------------------------------------------------------

function filesOf(partnerId: string): string[] {
  return [`${partnerId}.db`, `${partnerId}.db-wal`, `${partnerId}.db-shm`].map((f) => join(dir, f));
}
function bytesOf(partnerId: string): { db: number; all: number } {
  let all = 0;
  let db = 0;
  for (const f of filesOf(partnerId)) {
    try {
      const size = statSync(f).size;
      all += size;
      if (f.endsWith(".db")) db = size;
    } catch {
      // absent
    }
  }
  return { db, all };
}

async function churn(token: string) {
  const server = await startServer("app", benchEnv);
  children.push(server);
  const headers = { authorization: `Bearer ${token}` };
  const sample = async (requests: number): Promise<MemorySample> => {
    const m = (await (await fetch(`${server.origin}/__bench/memory`)).json()) as { rss: number; heapUsed: number; openTenants: number; openFds: number };
    return { requests, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, openTenants: m.openTenants, openFds: m.openFds };
  };
  const get = async (partnerId: string) => {
    const t = performance.now();
    const res = await fetch(`${server.origin}/api/assets/saved-views?partnerId=${partnerId}&limit=50`, { headers });
    await res.text();
    return { ms: performance.now() - t, ok: res.status === 200 };
  };
  await get(PARTNERS[1]!);
  const samples = [await sample(0)];
  const cold: number[] = [];
  let failures = 0;
  for (let i = 0; i < CHURN.length; i++) {
    const r = await get(CHURN[i]!);
    cold.push(r.ms);
    if (!r.ok) failures++;
    if ((i + 1) % 100 === 0 || i + 1 === CHURN.length) samples.push(await sample(i + 1));
  }
  // Warm: the partner asked last is open.
  const warm: number[] = [];
  for (let i = 0; i < 200; i++) warm.push((await get(CHURN[CHURN.length - 1]!)).ms);
  children.splice(children.indexOf(server), 1);
  await server.stop();

  const cacheSize = config.tenantCacheSize;
  const maxOpen = Math.max(...samples.map((s) => s.openTenants));
  const first = samples[0]!;
  const full = samples.find((s) => s.openTenants >= Math.min(cacheSize, CHURN.length)) ?? samples[samples.length - 1]!;
  const last = samples[samples.length - 1]!;
  const rssPerOpenMb = full.openTenants > first.openTenants ? (full.rssMb - first.rssMb) / (full.openTenants - first.openTenants) : Number.NaN;
  const verdict =
    `RSS ${first.rssMb.toFixed(0)} MB at the start, ${full.rssMb.toFixed(0)} MB with ${full.openTenants} partners open, ${last.rssMb.toFixed(0)} MB after ${last.requests}; ` +
    `at most ${maxOpen} partner databases open (TENANT_CACHE_SIZE ${cacheSize}).` +
    (failures > 0 ? ` ${failures} churn requests failed.` : "");
  return { samples, verdict, partners: CHURN.length, cacheSize, coldMs: median(cold), warmMs: median(warm), rssPerOpenMb };
}

interface PassResult {
  label: string;
  partners: number;
  seconds: number;
  cpuSeconds: number;
  /** Partner databases the pass ran any statement on (opening one runs some), and those it began a write transaction on (bun:sqlite statement log). */
  opened: number;
  written: number;
  outcomes: Record<string, number>;
}

/**
 * Passes of the nine scheduled jobs over every partner, in one process as the scheduler
 * runs them: twice over idle partners (the second after the first has seen them idle),
 * then with due work on 10 partners (a reservation each whose window has started, by
 * a clock moved 5 minutes on).
 */
async function jobsPasses(token: string): Promise<PassResult[]> {
  let offsetMs = 0;
  const deps = await createDeps(config, { clock: { now: () => new Date(Date.now() + offsetMs) } });
  const jobs = createJobRegistry().list();
  const pass = async (label: string): Promise<PassResult> => {
    const partners = (await deps.tenancy.listPartners()).length;
    const opened = new Set<string>();
    const written = new Set<string>();
    setStatementLog((st) => {
      if (!("partnerId" in st.database)) return;
      opened.add(st.database.partnerId);
      if (/^BEGIN IMMEDIATE/i.test(st.sql)) written.add(st.database.partnerId);
    });
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    const outcomes: Record<string, number> = {};
    try {
      for (const job of jobs) for (const o of await runJob(deps, job)) outcomes[o.status] = (outcomes[o.status] ?? 0) + 1;
    } finally {
      setStatementLog(undefined);
    }
    const seconds = (performance.now() - t) / 1000;
    const c = process.cpuUsage(cpu0);
    return { label, partners, seconds, cpuSeconds: (c.user + c.system) / 1e6, opened: opened.size, written: written.size, outcomes };
  };
  try {
    const out = [await pass("idle, first pass of the process"), await pass("idle, next pass")];
    const app = createApp(deps);
    for (const p of DUE_PARTNERS) {
      await seedItems(deps, [p], p, USER, 1);
      const h = await deps.tenancy.acquire(p);
      const [item] = (await h.db.rawRead("SELECT id FROM items LIMIT 1")) as Array<{ id: string }>;
      deps.tenancy.release(h);
      const startsAt = new Date(Date.now() + 120_000).toISOString();
      const res = await app.fetch(
        new Request(`${ORIGIN}/api/assets/reservations?partnerId=${p}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": `due-${p}` },
          body: JSON.stringify({ itemId: item!.id, holder: { kind: "user", id: USER }, startsAt, endsAt: new Date(Date.now() + 3_600_000).toISOString() }),
        }),
      );
      if (res.status !== 201) throw new Error(`seeding due work on ${p}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    }
    offsetMs = 5 * 60_000;
    out.push(await pass(`${DUE_PARTNERS.length} partners with due work (a reservation window started), 5 min later`));
    return out;
  } finally {
    deps.tenancy.close();
  }
}

async function snapshotBench(origin: string, token: string, partnerId: string) {
  const t = performance.now();
  const res = await fetch(`${origin}/api/assets/interoperability/snapshot?partnerId=${partnerId}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET /interoperability/snapshot answered ${res.status}: ${text.slice(0, 200)}`);
  const assets = (JSON.parse(text) as { assets?: unknown[] }).assets?.length ?? Number.NaN;
  return { ms, bytes: Buffer.byteLength(text), assets };
}

// ---- main --------------------------------------------------------------------

try {
  log(`options: ${JSON.stringify(opts)}`);
  log(`machine: ${machine()}`);
  const busyBefore = await cpuBusy();
  log(`CPUs ${Math.round(busyBefore * 100)} % busy with other work before the run`);
  const token = await mintToken(SECRET, USER, { ttlSeconds: 4 * 3600 });
  const run = Date.now().toString(36);

  // Seed, then capture what the service runs for each measured route, through the real app.
  const deps = await createDeps(config);
  let seeded: Seeded;
  const specs: ReferenceSpecs = { cursorKey: Buffer.from(deps.cursorKey).toString("base64"), lists: {}, writes: {} };
  const writeDefs: Array<{ key: string; label: string; servicePath: string; partners: string[]; body: (p: string, tag: string) => string; connections: number }> = [];
  try {
    seeded = await seedAll(deps, token);
    const app = createApp(deps);
    for (const l of LISTS) specs.lists[l.key] = await listReferenceOf(app, ORIGIN, token, l.def);
    writeDefs.push(
      { key: "create-1", label: `\`POST /api/assets/assets\`, 50 writers on one partner`, servicePath: "/api/assets/assets", partners: [WRITE_PARTNER], body: assetBodyFor(seeded.locations), connections: 50 },
      { key: "create-20", label: `\`POST /api/assets/assets\`, 50 writers over 20 partners`, servicePath: "/api/assets/assets", partners: PARTNERS, body: assetBodyFor(seeded.locations), connections: 50 },
      { key: "view-create", label: "`POST /api/assets/saved-views`, 50 writers on one partner", servicePath: "/api/assets/saved-views", partners: [WRITE_PARTNER], body: viewBody, connections: 50 },
    );
    for (const w of writeDefs) {
      specs.writes[w.key] = { byPartner: await writeReferenceOf(app, ORIGIN, token, { path: w.servicePath, partners: w.partners, body: w.body }, run) };
    }
    log(`captured the service's statements of ${LISTS.length} lists and ${writeDefs.length} writes`);
  } finally {
    deps.tenancy.close();
  }
  const specFile = join(dir, "reference-specs.json");
  writeFileSync(specFile, JSON.stringify(specs));

  const app = await startServer("app", benchEnv);
  children.push(app);
  const ref = await startServer("ref", benchEnv, { BENCH_SPECS: specFile });
  children.push(ref);
  log(`servers: app ${app.origin} (pid ${app.pid}), references ${ref.origin} (pid ${ref.pid})`);

  const ownedEtag = (await fetch(app.origin + LISTS[0]!.def.path, { headers: { authorization: `Bearer ${token}` } })).headers.get("etag") ?? "";
  const scenarios: Scenario[] = [
    ...LISTS.map((l) => ({
      key: l.key,
      label: l.label,
      service: l.def.path,
      reference: `/list/${l.key}`,
      referenceLabel: "bare bun:sqlite: same page + memoised count, same bytes",
      connections: 32,
    })),
    {
      key: "owned-304",
      label: "`GET /api/assets/owned?condition=new` revalidated (If-None-Match → 304)",
      service: LISTS[0]!.def.path,
      reference: "/hello",
      referenceLabel: "bare hello world",
      connections: 32,
      headers: { "if-none-match": ownedEtag },
      expectStatus: 304,
    },
    { key: "healthz", label: "`GET /healthz`", service: "/healthz", reference: "/hello", referenceLabel: "bare hello world", connections: 32 },
    ...writeDefs.map((w): Scenario => ({
      key: w.key,
      label: w.label,
      service: w.servicePath,
      reference: `/write/${w.key}`,
      referenceLabel: "bare bun:sqlite: the service's statements in one BEGIN IMMEDIATE",
      connections: w.connections,
      write: {
        servicePath: w.servicePath,
        referencePath: `/write/${w.key}`,
        partners: w.partners.map((p) => ({ id: p, parts: w.body(p, TAG).split(TAG) })),
      },
    })),
  ];
  // Issue 22 item 3: the same writers against two instances of each side sharing one port, right after the last of them.
  const twice = scenarios.filter((s) => TWO_INSTANCES.includes(s.key));
  scenarios.splice(
    scenarios.indexOf(twice[twice.length - 1]!) + 1,
    0,
    ...twice.map((s) => ({ ...s, key: `${s.key}x2`, label: `${s.label}, two instances`, referenceLabel: `${s.referenceLabel}, two processes`, instances: 2 })),
  );
  // Totals for the labels.
  for (const s of scenarios) {
    if (!s.reference.startsWith("/list")) continue;
    const page = (await (await fetch(app.origin + s.service, { headers: { authorization: `Bearer ${token}` } })).json()) as { total: number; items: unknown[] };
    const l = LISTS.find((x) => x.key === s.key)!;
    s.label = `${l.label}: ${page.items.length} of ${n(page.total)}, exact total`;
  }
  const rows: Row[] = [];
  let pair: { app: ServerChild; ref: ServerChild } | undefined;
  for (const s of scenarios) {
    if (opts.only && !opts.only.includes(s.key)) continue;
    let [sApp, sRef] = [app, ref];
    if ((s.instances ?? 1) > 1) {
      if (!pair) {
        const app2 = await startServer("app", benchEnv, {}, 2);
        children.push(app2);
        const ref2 = await startServer("ref", benchEnv, { BENCH_SPECS: specFile }, 2);
        children.push(ref2);
        pair = { app: app2, ref: ref2 };
        log(`two instances on one port: app ${app2.origin} (pids ${app2.pids.join(", ")}), references ${ref2.origin} (pids ${ref2.pids.join(", ")})`);
      }
      [sApp, sRef] = [pair.app, pair.ref];
    }
    const broken = s.write ? await checkWrite(s, sApp, sRef, token) : await check(s, sApp, sRef, token);
    if (broken) {
      log(`${s.key}: NOT MEASURED: ${broken}`);
      rows.push({ key: s.key, label: s.label, referenceLabel: s.referenceLabel, connections: s.connections, skipped: broken });
      continue;
    }
    log(`${s.key}: the reference answers what the service answers; measuring`);
    rows.push(await measure(s, sApp, sRef, token));
  }
  await Promise.all(children.splice(0).map((c) => c.stop()));

  const large: LargeTable[] = [];
  const extra: string[] = [];
  let memory: Awaited<ReturnType<typeof churn>> | undefined;
  if (opts.large) {
    const server = await startServer("app", benchEnv);
    children.push(server);
    const fresh = await mintToken(SECRET, USER, { ttlSeconds: 600 });
    const work: LargeTable = { title: "Large work (one request at a time on the app server)", head: ["Work", "Seconds", "Detail"], rows: [] };
    if (seeded!.epcisWindow) {
      const m = await measureEpcisExport(server.origin, fresh, EPCIS_PARTNER, seeded!.epcisWindow);
      work.rows.push([`EPCIS export (\`GET /interoperability/epcis\`), ${n(m.events)} events`, (m.ms / 1000).toFixed(2), `${(m.bytes / 2 ** 20).toFixed(1)} MB; server RSS ${m.rssBeforeMb.toFixed(0)} → ${m.rssAfterMb.toFixed(0)} MB`]);
    }
    try {
      const snap = await snapshotBench(server.origin, fresh, LIST_PARTNER);
      work.rows.push([`Snapshot (\`GET /interoperability/snapshot\`), ${n(snap.assets)} items`, (snap.ms / 1000).toFixed(2), `${(snap.bytes / 2 ** 20).toFixed(1)} MB`]);
    } catch (err) {
      work.rows.push(["Snapshot (`GET /interoperability/snapshot`)", "—", `failed: ${(err as Error).message.slice(0, 120)}`]);
    }
    large.push(work);
    if (importRoutes()) {
      const imp = await timed("validated and committed a 10,000-row CSV", () => benchImport(server, fresh, PARTNERS[2]!, 10_000));
      extra.push(...renderImportBench(imp));
    }
    children.splice(children.indexOf(server), 1);
    await server.stop();

    if (CHURN.length > 0) {
      memory = await timed(`churned through ${CHURN.length} partners`, () => churn(token));
      const empty = bytesOf(CHURN[CHURN.length - 1]!);
      large.push({
        title: "Footprint of a partner",
        head: ["Figure", "Value"],
        rows: [
          ["Bytes per empty partner (database file; with WAL and shared memory)", `${n(empty.db)} B; ${n(empty.all)} B`],
          ["Provisioning time per partner (with its first member)", `${seeded!.provisionMs.toFixed(1)} ms`],
          ["Cold open: median time of a list request to a partner not open yet", `${memory.coldMs.toFixed(2)} ms`],
          ["Warm: median time of the same request to an open partner", `${memory.warmMs.toFixed(2)} ms`],
          ["RSS per open partner", `${memory.rssPerOpenMb.toFixed(2)} MB`],
        ],
      });
      const passes = await timed("passes of the scheduled jobs", () => jobsPasses(token));
      large.push({
        title: "Passes of the nine scheduled jobs over every partner (one process, one partner at a time)",
        head: ["Partners", "State", "Seconds", "CPU seconds", "Partner DBs read", "Partner DBs written", "Runs"],
        rows: passes.map((j) => [
          n(j.partners),
          j.label,
          j.seconds.toFixed(2),
          j.cpuSeconds.toFixed(2),
          n(j.opened),
          n(j.written),
          Object.entries(j.outcomes)
            .map(([k, v]) => `${n(v)} ${k}`)
            .join(", "),
        ]),
      });
    }
  }

  const busyAfter = await cpuBusy();
  const seconds = (performance.now() - t0) / 1000;
  const notes = [
    "Service: the real app (`createApp`: token, partner and membership resolution, validation, idempotency, Drizzle, signed cursors, ETags) in one process. " +
      "Reference: a bare `Bun.serve` over `bun:sqlite` on the same partner files in another process, doing the same algorithm and no more. " +
      "\"Two instances\": two processes of each side listening on one port with SO_REUSEPORT (`REUSE_PORT=true`), the kernel spreading wrk's connections; " +
      "a reference, like the service, waits for a partner file's write lock the other process holds by retrying `BEGIN IMMEDIATE` after short asynchronous pauses. " +
      "A list's reference runs the service's own page and count statements, captured from the service on this run (SQL text and parameters, scripts/bench/capture.ts), " +
      "in one read transaction with the count memoised by `PRAGMA data_version` as the service does, and writes the same JSON bytes (same cursor HMAC). " +
      "A write's reference replays the statements the service ran for one request (captured the same way) with fresh ids, key and time in one `BEGIN IMMEDIATE … COMMIT`; " +
      "values the service derives by hashing or sealing (the request fingerprint, the stored answer) are fresh random text of the same length. " +
      "Before measuring, each reference's answer is compared with its service's (lists: byte for byte but `asOf`; writes: but ids and times); a scenario that differs is not measured. " +
      "test/bench-references.test.ts checks the same in `npm test`.",
    `wrk ${opts.threads} threads, ${opts.duration} s per run after a ${opts.warmup} s warm-up of each side; ${opts.rounds} rounds of service then reference (A B A B …) per scenario; ` +
      "req/s and p50/p99 (wrk --latency) are medians over the rounds, ratio = service req/s ÷ reference req/s. Writes: a Lua script gives each request its own Idempotency-Key and body tag.",
    `"CPU used by others" is the largest share of all ${cpus().length} CPUs that processes other than the bench, wrk and the server under load took during one of the scenario's runs; on a shared machine absolute figures are noisy, ratios of alternating runs less so.`,
  ];
  const report = renderReport({ date: new Date(), machine: machine(), rows, scaling: writerScaling(rows), large, memory, extra, notes, seconds, busyBefore, busyAfter });
  console.log(report);
  if (opts.quick || opts.only) log("--quick/--only: README not updated");
  else if (opts.readme) log(writeReadme(join(import.meta.dir, "..", "README.md"), report));
  log(`done in ${seconds.toFixed(0)} s`);
} finally {
  await cleanup();
}
