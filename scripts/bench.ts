// npm run bench [-- --quick] [--duration 5] [--connections 50] [--warmup 1]
//               [--churn 1000] [--write-partners 20] [--retries 1] [--no-readme] [--keep]
//
// Seeds a temporary TENANTS_DIR through the service code (20 partners, 10,000
// saved views on p00, 10,000 items when issue 3's routes exist, 1,000 churn
// partners), then loads the real app, a bare hello world and a bare raw-SQL
// server, each in its own child process, with autocannon from this process.
// Prints a markdown table and copies it between the README's bench markers.
// Not part of npm test.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { AutocannonRequest } from "autocannon";
import { loadConfig } from "../src/env.ts";
import { createDeps } from "../src/deps.ts";
import { mintToken } from "../src/platform/auth/mint.ts";
import { provisionPartners, seedSavedViews } from "./bench/seed.ts";
import { assetBody, createAssetRoute, ownedRoute, seedItems, type ItemsSetup } from "./bench/items.ts";
import { startServer, type ServerChild } from "./bench/child.ts";
import { epcisRoute, measureEpcisExport, seedEpcisEvents } from "./bench/epcis.ts";
import { runLoad } from "./bench/load.ts";
import { cpuBusy, cpuMark, foreignShare } from "./bench/cpu.ts";
import { renderReport, writeReadme, type MemorySample, type Row } from "./bench/report.ts";
import { benchImport, importRoutes, renderImportBench } from "./bench/imports.ts";

// ---- options ----------------------------------------------------------------

function parseArgs(argv: string[]) {
  const o = {
    duration: 5,
    connections: 50,
    warmup: 1,
    churn: 1000,
    writePartners: 20,
    views: 10_000,
    items: 10_000,
    readme: true,
    keep: false,
    quick: false,
    retries: 1,
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
        o.quick = true;
        o.duration = 1;
        o.warmup = 0.5;
        break;
      case "--duration": o.duration = num("duration", value()); break;
      case "--connections": o.connections = Math.max(1, Math.floor(num("connections", value()))); break;
      case "--warmup": o.warmup = num("warmup", value()); break;
      case "--churn": o.churn = Math.floor(num("churn", value())); break;
      case "--write-partners": o.writePartners = Math.min(20, Math.max(1, Math.floor(num("write-partners", value())))); break;
      case "--views": o.views = Math.floor(num("views", value())); break;
      case "--items": o.items = Math.floor(num("items", value())); break;
      case "--retries": o.retries = Math.floor(num("retries", value())); break;
      case "--no-readme": o.readme = false; break;
      case "--keep": o.keep = true; break;
      case "--help":
        console.log("npm run bench -- [--quick] [--duration s] [--connections n] [--warmup s] [--churn partners] [--write-partners 1-20] [--views n] [--items n] [--retries n] [--no-readme] [--keep]");
        process.exit(0);
      default:
        throw new Error(`unknown option ${flag} (try --help)`);
    }
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const t0 = performance.now();
const log = (msg: string) => console.error(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);
const timed = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const r = await fn();
  log(`${what} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  return r;
};

// ---- set-up -------------------------------------------------------------------

const USER = "bench-user";
const SECRET = "bench-secret-for-loopback-only-0123456789";
const pad = (n: number, w: number) => String(n).padStart(w, "0");
const PARTNERS = Array.from({ length: 20 }, (_, i) => `p${pad(i, 2)}`);
const LIST_PARTNER = PARTNERS[0]!;
/** Issue 12: the partner whose 10,000 movements one EPCIS export carries. */
const EPCIS_PARTNER = "x00";
const EPCIS_EVENTS = 10_000;
let epcisWindow: { from: string; to: string } | undefined;
const CHURN = Array.from({ length: opts.churn }, (_, i) => `c${pad(i, 4)}`);

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
const children: ServerChild[] = [];
let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(children.splice(0).map((c) => c.stop()));
  if (!opts.keep) rmSync(dir, { recursive: true, force: true });
}
process.on("SIGINT", () => void cleanup().finally(() => process.exit(130)));

async function seed(): Promise<ItemsSetup> {
  log(`seeding ${dir}`);
  const deps = await createDeps(config);
  try {
    await timed(`provisioned ${PARTNERS.length} partners with a member`, () => provisionPartners(deps, PARTNERS, USER, "admin"));
    await timed(`created ${opts.views.toLocaleString("en-US")} saved views on ${LIST_PARTNER} through createSavedView`, () =>
      seedSavedViews(deps, LIST_PARTNER, USER, opts.views),
    );
    // Items only matter to GET /owned; POST /assets needs just a location per partner.
    const itemCount = ownedRoute() ? opts.items : 0;
    const items = ownedRoute() || createAssetRoute()
      ? await timed(`created a location per partner and ${itemCount.toLocaleString("en-US")} items on ${LIST_PARTNER} through the POST /assets handler`, () =>
          seedItems(deps, PARTNERS, LIST_PARTNER, USER, itemCount),
        )
      : ({ ok: false, reason: "route not implemented" } as const);
    if (!items.ok) log(`items: ${items.reason}`);
    if (epcisRoute()) {
      await provisionPartners(deps, [EPCIS_PARTNER], USER, "admin");
      epcisWindow = await timed(`seeded ${EPCIS_EVENTS.toLocaleString("en-US")} movements on ${EPCIS_PARTNER} for the EPCIS export`, () =>
        seedEpcisEvents(deps, EPCIS_PARTNER, USER, EPCIS_EVENTS),
      );
    }
    // Every partner exists before any server child opens the registry.
    await timed(`provisioned ${CHURN.length} churn partners with a member`, () => provisionPartners(deps, CHURN, USER, "viewer"));
    return items;
  } finally {
    deps.tenancy.close();
  }
}

// ---- scenarios ---------------------------------------------------------------

type ServerMode = "hello" | "app" | "raw" | "bun";
/** Share of all CPUs other processes may take before a measurement is repeated. */
const NOISY = 0.1;
interface Scenario {
  key: string;
  label: string;
  server: ServerMode;
  method: "GET" | "POST";
  path: string;
  /** Per-request path, headers and body for writes (unique keys and names). */
  vary?: () => AutocannonRequest;
  /** Keys of the bare references (bun:sqlite, @libsql/client) this scenario is compared with. */
  bunOf?: string;
  rawOf?: string;
  /** Extra request headers (If-None-Match for the revalidation scenario). */
  headers?: Record<string, string>;
  /** A non-2xx status that is this scenario's success. */
  expectStatus?: number;
  skip?: string;
}

function scenarios(token: string, items: ItemsSetup): Scenario[] {
  const run = Date.now().toString(36);
  let seq = 0;
  const auth = { authorization: `Bearer ${token}` };
  const writers = PARTNERS.slice(0, opts.writePartners);
  const spread = writers.length === 1 ? `on ${writers[0]}` : `across ${writers.length} partners`;
  const viewWrite = (prefix: string) => (): AutocannonRequest => {
    const n = seq++;
    return {
      method: "POST",
      path: `${prefix}?partnerId=${writers[n % writers.length]}`,
      headers: { ...auth, "content-type": "application/json", "idempotency-key": `bench-${run}-${n}` },
      body: JSON.stringify({ name: `Bench view ${run} ${n}`, surface: "owned", query: { q: "drill", limit: 50 } }),
    };
  };
  const assetWrite = (prefix: string) => (): AutocannonRequest => {
    const n = seq++;
    const partnerId = writers[n % writers.length]!;
    const loc = items.ok ? items.locations.get(partnerId) ?? "" : "";
    return {
      method: "POST",
      path: `${prefix}?partnerId=${partnerId}`,
      headers: { ...auth, "content-type": "application/json", "idempotency-key": `bench-${run}-${n}` },
      body: JSON.stringify(assetBody(loc, `${run}-${n}`)),
    };
  };
  const itemsSkip = (route: unknown) => (!route ? "route not implemented" : items.ok ? undefined : items.reason);
  const ownedSkip = itemsSkip(ownedRoute());
  const createSkip = itemsSkip(createAssetRoute());
  const n = (x: number) => x.toLocaleString("en-US");
  // Reads before writes: the writes add rows to p00.
  return [
    { key: "hello", label: "Reference: bare `Bun.serve` hello world", server: "hello", method: "GET", path: "/" },
    { key: "healthz", label: "`GET /healthz`", server: "app", method: "GET", path: "/healthz" },
    {
      key: "bun-list",
      label: "Reference: bare bun:sqlite saved-views page + count",
      server: "bun",
      method: "GET",
      path: `/raw/saved-views?partnerId=${LIST_PARTNER}&limit=50`,
    },
    {
      key: "raw-list",
      label: "Reference: bare libSQL saved-views page + count",
      server: "raw",
      method: "GET",
      path: `/raw/saved-views?partnerId=${LIST_PARTNER}&limit=50`,
    },
    {
      key: "list",
      label: `\`GET /api/assets/saved-views\`: 50 of ${n(opts.views)} rows, exact total`,
      server: "app",
      method: "GET",
      path: `/api/assets/saved-views?partnerId=${LIST_PARTNER}&limit=50`,
      bunOf: "bun-list",
      rawOf: "raw-list",
    },
    {
      key: "bun-owned",
      label: "Reference: bare bun:sqlite owned-items page + count",
      server: "bun",
      method: "GET",
      path: `/raw/owned?partnerId=${LIST_PARTNER}&limit=50`,
      skip: ownedSkip,
    },
    {
      key: "raw-owned",
      label: "Reference: bare libSQL owned-items page + count",
      server: "raw",
      method: "GET",
      path: `/raw/owned?partnerId=${LIST_PARTNER}&limit=50`,
      skip: ownedSkip,
    },
    {
      key: "owned",
      label: `\`GET /api/assets/owned\`: 50 of ${n(opts.items)} items, exact total`,
      server: "app",
      method: "GET",
      path: `/api/assets/owned?partnerId=${LIST_PARTNER}&limit=50`,
      bunOf: "bun-owned",
      rawOf: "raw-owned",
      skip: ownedSkip,
    },
    {
      key: "owned-304",
      label: `\`GET /api/assets/owned\` revalidated: If-None-Match answered 304`,
      server: "app",
      method: "GET",
      path: `/api/assets/owned?partnerId=${LIST_PARTNER}&limit=50`,
      headers: { "if-none-match": "(filled in by the probe)" },
      expectStatus: 304,
      skip: ownedSkip,
    },
    {
      key: "bun-write",
      label: `Reference: bare bun:sqlite key lookup + name lookup + insert view + idempotency key, ${spread}`,
      server: "bun",
      method: "POST",
      path: "/raw/saved-views",
      vary: viewWrite("/raw/saved-views"),
    },
    {
      key: "raw-write",
      label: `Reference: bare libSQL key lookup + name lookup + insert view + idempotency key, ${spread}`,
      server: "raw",
      method: "POST",
      path: "/raw/saved-views",
      vary: viewWrite("/raw/saved-views"),
    },
    {
      key: "write",
      label: `\`POST /api/assets/saved-views\` with Idempotency-Key, ${spread}`,
      server: "app",
      method: "POST",
      path: "/api/assets/saved-views",
      vary: viewWrite("/api/assets/saved-views"),
      bunOf: "bun-write",
      rawOf: "raw-write",
    },
    {
      key: "bun-create",
      label: `Reference: bare bun:sqlite key lookup + location lookup + insert item, movement, outbox, item history, idempotency key, ${spread}`,
      server: "bun",
      method: "POST",
      path: "/raw/assets",
      vary: assetWrite("/raw/assets"),
      skip: createSkip,
    },
    {
      key: "raw-create",
      label: `Reference: bare libSQL key lookup + location lookup + insert item, movement, outbox, item history, idempotency key, ${spread}`,
      server: "raw",
      method: "POST",
      path: "/raw/assets",
      vary: assetWrite("/raw/assets"),
      skip: createSkip,
    },
    {
      key: "create",
      label: `\`POST /api/assets/assets\` with Idempotency-Key, ${spread}`,
      server: "app",
      method: "POST",
      path: "/api/assets/assets",
      vary: assetWrite("/api/assets/assets"),
      bunOf: "bun-create",
      rawOf: "raw-create",
      skip: createSkip,
    },
  ];
}

/** One request first, so a broken route is reported instead of measured. */
async function probe(origin: string, s: Scenario, headers: Record<string, string>): Promise<string | undefined> {
  if (s.expectStatus === 304) {
    // The tag the client holds: the one a plain GET of the same URL answers with.
    const tag = (await fetch(origin + s.path, { headers })).headers.get("etag");
    if (!tag) return "the route sent no ETag";
    headers["if-none-match"] = tag;
  }
  const req = s.vary ? s.vary() : { method: s.method, path: s.path, headers };
  const res = await fetch(origin + (req.path ?? s.path), { method: req.method ?? s.method, headers: req.headers ?? headers, body: req.body });
  const text = await res.text();
  if (s.expectStatus !== undefined ? res.status !== s.expectStatus : res.status < 200 || res.status >= 300) {
    return `answered ${res.status}: ${text.slice(0, 200)}`;
  }
  // Lists: show what the page really covers, so a mis-seeded partner is visible.
  const page = s.method === "GET" && text.startsWith("{") ? (JSON.parse(text) as { total?: unknown; items?: unknown[] }) : undefined;
  if (typeof page?.total === "number") log(`${s.key}: probe returned ${page.items?.length ?? 0} items of total ${page.total}`);
  return undefined;
}

async function measure(list: Scenario[], servers: Record<ServerMode, ServerChild>, token: string): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  for (const s of list) {
    if (s.skip) {
      rows.set(s.key, { label: s.label, skipped: s.skip });
      log(`${s.key}: skipped: ${s.skip}`);
      continue;
    }
    const origin = servers[s.server].origin;
    const headers: Record<string, string> = s.server === "hello" ? {} : { authorization: `Bearer ${token}`, ...s.headers };
    const broken = await probe(origin, s, headers);
    if (broken) {
      rows.set(s.key, { label: s.label, skipped: broken });
      log(`${s.key}: skipped: ${broken}`);
      continue;
    }
    const spec = { origin, method: s.method, path: s.path, headers, vary: s.vary, connections: opts.connections, expectStatus: s.expectStatus };
    if (opts.warmup > 0) await runLoad({ ...spec, duration: opts.warmup });
    let row: Row | undefined;
    // On a shared machine, a run disturbed by other processes is repeated; the least disturbed one counts.
    for (let attempt = 0; attempt <= opts.retries; attempt++) {
      const before = cpuMark([servers[s.server].pid]);
      const result = await runLoad({ ...spec, duration: opts.duration });
      const foreign = foreignShare(before, cpuMark([servers[s.server].pid]));
      log(
        `${s.key}: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
          (foreign === undefined ? "" : `others used ${Math.round(foreign * 100)} % CPU`) +
          (result.non2xx > 0 ? ` ${JSON.stringify(result.statusCodes)}` : ""),
      );
      if (!row || (foreign ?? 0) < (row.foreign ?? 0)) row = { label: s.label, result, foreign };
      if (foreign === undefined || foreign <= NOISY) break;
      if (attempt < opts.retries) log(`${s.key}: disturbed by other processes; measuring again`);
    }
    rows.set(s.key, row!);
  }
  const hello = rows.get("hello")?.result?.rps;
  for (const s of list) {
    const row = rows.get(s.key)!;
    if (!row.result) continue;
    if (hello) row.vsHello = row.result.rps / hello;
    const raw = s.rawOf ? rows.get(s.rawOf)?.result?.rps : undefined;
    if (raw) row.vsRaw = row.result.rps / raw;
    const bare = s.bunOf ? rows.get(s.bunOf)?.result?.rps : undefined;
    if (bare) row.vsBun = row.result.rps / bare;
  }
  return rows;
}

// ---- tenant churn ------------------------------------------------------------

async function churn(token: string) {
  const server = await startServer("app", benchEnv, USER);
  children.push(server);
  const headers = { authorization: `Bearer ${token}` };
  const sample = async (requests: number): Promise<MemorySample> => {
    const m = (await (await fetch(`${server.origin}/__bench/memory`)).json()) as { rss: number; heapUsed: number; openTenants: number; openFds: number };
    return { requests, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, openTenants: m.openTenants, openFds: m.openFds };
  };
  // A first request to a partner the churn never touches, so the baseline includes the loaded app.
  await fetch(`${server.origin}/api/assets/saved-views?partnerId=${PARTNERS[1]}`, { headers }).then((r) => r.text());
  const samples = [await sample(0)];
  let failures = 0;
  for (let i = 0; i < CHURN.length; i++) {
    const res = await fetch(`${server.origin}/api/assets/saved-views?partnerId=${CHURN[i]}&limit=50`, { headers });
    await res.text();
    if (res.status !== 200) failures++;
    if ((i + 1) % 100 === 0 || i + 1 === CHURN.length) samples.push(await sample(i + 1));
  }
  children.splice(children.indexOf(server), 1);
  await server.stop();

  const cacheSize = config.tenantCacheSize;
  const maxOpen = Math.max(...samples.map((s) => s.openTenants));
  // The cache is full after cacheSize partners; judge the growth after it has been full for 100 more.
  const from = samples.find((s) => s.requests >= cacheSize + 100) ?? samples[0]!;
  const last = samples[samples.length - 1]!;
  const first = samples[0]!;
  const growth = last.rssMb - from.rssMb;
  const allowed = Math.max(16, from.rssMb * 0.1);
  const plateaus = growth <= allowed && maxOpen <= cacheSize;
  const verdict =
    `RSS ${first.rssMb.toFixed(0)} MB at the start, ${from.rssMb.toFixed(0)} MB after ${from.requests} partners, ` +
    `${last.rssMb.toFixed(0)} MB after ${last.requests} (${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MB over the last ${last.requests - from.requests}); ` +
    `at most ${maxOpen} partner databases open. ` +
    (plateaus
      ? `**Plateaus**: memory is bounded by the tenant cache, not by the number of partners.`
      : `**Does not plateau** (growth above ${allowed.toFixed(0)} MB after the cache filled).`) +
    (failures > 0 ? ` ${failures} churn requests failed.` : "");
  return { samples, verdict, partners: CHURN.length, cacheSize, plateaus };
}

// ---- main --------------------------------------------------------------------

try {
  log(`options: ${JSON.stringify(opts)}`);
  const busyBefore = await cpuBusy();
  log(`CPUs ${Math.round(busyBefore * 100)} % busy with other work before the run`);
  const items = await seed();
  const token = await mintToken(SECRET, USER, { ttlSeconds: 3600 });
  const servers = {} as Record<ServerMode, ServerChild>;
  for (const mode of ["hello", "app", "raw", "bun"] as const) {
    servers[mode] = await startServer(mode, benchEnv, USER);
    children.push(servers[mode]);
  }
  log(`servers: ${Object.values(servers).map((s) => `${s.mode} ${s.origin} (pid ${s.pid})`).join(", ")}`);
  const list = scenarios(token, items);
  const rows = await measure(list, servers, token);
  let epcisNote = "EPCIS export: skipped (route not implemented).";
  if (epcisWindow) {
    // A fresh token: the export needs a step-up no older than 15 minutes.
    const fresh = await mintToken(SECRET, USER, { ttlSeconds: 600 });
    const m = await measureEpcisExport(servers.app.origin, fresh, EPCIS_PARTNER, epcisWindow);
    epcisNote =
      `EPCIS export (\`GET /api/assets/interoperability/epcis\`, one request, ${m.events.toLocaleString("en-US")} events, ${(m.bytes / 2 ** 20).toFixed(1)} MB): ` +
      `${(m.ms / 1000).toFixed(2)} s to the last byte; server RSS ${m.rssBeforeMb.toFixed(0)} MB before, ${m.rssAfterMb.toFixed(0)} MB after.`;
    log(epcisNote);
  }
  await Promise.all(children.splice(0).map((c) => c.stop()));

  const memory = opts.churn > 0 ? await timed(`churned through ${CHURN.length} partners`, () => churn(token)) : undefined;
  const importRun = importRoutes()
    ? await timed("validated and committed a 10,000-row CSV", async () => {
        const server = await startServer("app", benchEnv, USER);
        children.push(server);
        try {
          return await benchImport(server, token, PARTNERS[1]!, 10_000);
        } finally {
          children.splice(children.indexOf(server), 1);
          await server.stop();
        }
      })
    : undefined;
  if (importRun) for (const s of importRun.steps) log(`import: ${s.label}: ${s.seconds.toFixed(2)} s, status ${s.status}, RSS ${s.rssMb.toFixed(0)} MB, peak ${s.peakRssMb?.toFixed(0) ?? "?"} MB`);

  const notes = [
    "API rows run the real app (`createApp`: token, partner and membership resolution, validation, idempotency, Drizzle, signed cursors, ETags). " +
      "Reference rows do the same SQL work on the same files through bare `bun:sqlite` (statements cached) or bare `@libsql/client`, with the same connection pragmas and no framework, auth, validation or ORM: " +
      "the page and its count in one read transaction; for writes, one interactive write transaction per partner at a time with the idempotency-key lookup, " +
      "the duplicate-name (views) or location (assets) lookup, then the inserts. Only the app's membership read is not mirrored. The references count on every request; the app serves a list's exact total from its memo while the partner's data version is unchanged (nothing is written during the read scenarios).",
    `Writes use a unique Idempotency-Key and name per request, spread ${opts.writePartners === 1 ? `on ${LIST_PARTNER}` : `round-robin across ${opts.writePartners} partners`}.`,
    "p50/p99 are over every response, measured per request in the load generator. The load generator shares the machine's CPUs with the server, so the hello-world figure is partly the generator's own limit.",
  ];
  notes.push(epcisNote);
  const busyAfter = await cpuBusy();
  notes.push(
    `"CPU used by others" is the share of all ${cpus().length} CPUs taken by processes other than the load generator and the server during the measurement; ` +
      `a run above ${NOISY * 100} % is repeated ${opts.retries === 1 ? "once" : `up to ${opts.retries} times`} and the least disturbed one is shown. Disturbed rows understate throughput.`,
  );
  const report = renderReport({
    date: new Date(),
    connections: opts.connections,
    duration: opts.duration,
    warmup: opts.warmup,
    rows: list.map((s) => rows.get(s.key)!),
    notes,
    memory,
    seconds: (performance.now() - t0) / 1000,
    busyBefore,
    busyAfter,
    extra: importRun ? renderImportBench(importRun) : [],
  });
  console.log(report);
  if (opts.quick) log("--quick: README not updated");
  else if (opts.readme) log(writeReadme(join(import.meta.dir, "..", "README.md"), report));
  log(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  await cleanup();
}
