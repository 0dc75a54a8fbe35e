// The production-install proof .ci/run runs after `npm ci` (run it with
// `npx bun scripts/ci/production-smoke.ts`): copies this repository's files (what git
// tracks, plus new files it does not ignore) to a temporary directory, runs
// `npm ci --omit=dev` there, starts the service the README way (`npm start`, NODE_ENV=production),
// and requires
//   - a first start that provisions no partner and prints no token, only the line saying
//     how to create the first partner and its owner with the CLI;
//   - /healthz and /readyz 200, and, after following that line (`npm run tenant`) and
//     minting a token (`npm run token`), 200 from both families;
//   - the operator console's page (/console/) and its script bundle answering 200;
//   - the production CLIs working (tenant provision, member and list, token, jobs);
//   - SIGTERM to npm's PID (a supervisor) and SIGINT to the process group (Ctrl-C) each
//     stopping the server gracefully while a write is in flight: the write completes with
//     201 (and is there after a restart), the port closes, every process exits, npm with 0;
//   - no npm warning about unreviewed install scripts (package.json `allowScripts`).
// It prints the install time and size and the time to the first 200. Exit 1 on any failure.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { checkGracefulStop, startViaNpm, type Started, type StopReport } from "./serve-check.ts";

const ROOT = resolve(import.meta.dir, "../..");
const t0 = performance.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const log = (line: string) => process.stdout.write(`[production-smoke] ${line}\n`);

/** The environment npm commands get: ours without the npm_* variables an outer npm/npx set. */
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.toLowerCase().startsWith("npm_"))) as Record<string, string>;

function run(cmd: string[], cwd: string, env: Record<string, string> = npmEnv) {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** Files of the repository as a clean clone has them (plus new, not ignored ones), else everything but dependencies and data. */
function copyTree(to: string): number {
  const git = existsSync(join(ROOT, ".git")) ? run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT) : undefined;
  if (git && git.code === 0) {
    const files = git.stdout.split("\0").filter((f) => f && existsSync(join(ROOT, f)));
    for (const f of files) {
      mkdirSync(dirname(join(to, f)), { recursive: true });
      cpSync(join(ROOT, f), join(to, f));
    }
    return files.length;
  }
  const skip = new Set(["node_modules", ".git", "tenants"]);
  for (const name of readdirSync(ROOT)) if (!skip.has(name)) cpSync(join(ROOT, name), join(to, name), { recursive: true });
  return -1;
}

async function getJson(s: Started, path: string, token: string): Promise<{ status: number; body: { items?: Array<{ name?: string }> } | undefined }> {
  const res = await fetch(`${s.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as { items?: Array<{ name?: string }> } | undefined };
}

function must(ok: unknown, msg: string): asserts ok {
  if (!ok) throw new Error(msg);
}

const work = mkdtempSync(join(tmpdir(), "production-smoke-"));
const app = join(work, "app");
let started: Started | undefined;
try {
  mkdirSync(app);
  const copied = copyTree(app);
  log(`copied ${copied < 0 ? "the tree" : `${copied} files`} to ${app}`);

  const ti = performance.now();
  const ci = run(["npm", "ci", "--omit=dev", "--ignore-scripts=false", "--prefer-offline", "--no-audit", "--no-fund"], app);
  const installMs = performance.now() - ti;
  must(ci.code === 0, `npm ci --omit=dev failed:\n${ci.stdout}\n${ci.stderr}`);
  must(!/install-scripts/.test(ci.stderr), `npm warns about install scripts allowScripts does not cover:\n${ci.stderr.split("\n").filter((l) => l.includes("install-scripts")).join("\n")}`);
  const ebadengine = new Set([...ci.stderr.matchAll(/package: '([^']+)'/g)].map((m) => m[1]));
  const size = run(["du", "-sh", "node_modules"], app).stdout.split("\t")[0];
  log(`npm ci --omit=dev: ${secs(installMs)}, node_modules ${size}, ${ebadengine.size} packages warn EBADENGINE`);
  must(existsSync(join(app, "node_modules", ".bin", "bun")), "the production install has no node_modules/.bin/bun");

  const dataDir = join(work, "data");
  const serverEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? work,
    NODE_ENV: "production",
    PORT: "0",
    TENANTS_DIR: dataDir,
    DASHBOARD_JWT_SECRET: randomBytes(32).toString("base64url"),
    DATA_KEK: randomBytes(32).toString("base64"),
    LOG_LEVEL: "info",
  };

  // The production CLIs, with the server's environment.
  const cli = (...args: string[]) => run(["npm", "run", "-s", ...args], app, { ...npmEnv, ...serverEnv });
  const PARTNER = "smoke-co";
  const OWNER = "smoke-owner";

  // First start: no partner and no token in production, only how to create the first partner.
  started = await startViaNpm({ cwd: app, env: serverEnv });
  log(`npm start: first 200 from /healthz after ${secs(started.msToFirst200)} (${started.url})`);
  const ready = await fetch(`${started.url}/readyz`);
  must(ready.status === 200, `GET /readyz answered ${ready.status}: ${await ready.text()}`);
  const output = started.lines.join("\n");
  must(!started.token && !/eyJ[A-Za-z0-9_-]+\./.test(output), `a production first start printed a token:\n${output}`);
  must(started.lines.some((l) => l.startsWith("no partner yet: ") && l.includes("npm run tenant -- provision")), `no first-partner line printed:\n${output}`);
  must((JSON.parse(cli("tenant", "--", "list").stdout) as unknown[]).length === 0, "a production first start provisioned a partner");
  // Following the printed line while the server runs, then a token for the owner.
  for (const args of [["provision", PARTNER, "--name", "Smoke Co"], ["member", PARTNER, OWNER, "--role", "owner"]]) {
    const r = cli("tenant", "--", ...args);
    must(r.code === 0, `npm run tenant -- ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  }
  const mintedFirst = cli("token", "--", OWNER);
  must(mintedFirst.code === 0, `npm run token: ${mintedFirst.stderr}`);
  const token = (JSON.parse(mintedFirst.stdout) as { token: string }).token;
  for (const path of [`/api/assets/saved-views?partnerId=${PARTNER}`, `/api/planning/projects?partnerId=${PARTNER}`]) {
    const r = await getJson(started, path, token);
    must(r.status === 200, `GET ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  log("no partner and no token on the first start; after npm run tenant and npm run token, assets and planning answer 200");
  // The operator console, bundled by the production install itself on its first request.
  const consolePage = await fetch(`${started.url}/console/`);
  const consoleHtml = await consolePage.text();
  must(consolePage.status === 200 && consolePage.headers.get("content-security-policy")?.startsWith("default-src 'self'"), `GET /console/ answered ${consolePage.status}: ${consoleHtml.slice(0, 200)}`);
  const bundlePath = /<script type="module" src="([^"]+)"/.exec(consoleHtml)?.[1];
  must(bundlePath, `the console page names no script:\n${consoleHtml}`);
  const bundle = await fetch(`${started.url}${bundlePath}`);
  const bundleBytes = (await bundle.arrayBuffer()).byteLength;
  must(bundle.status === 200 && bundleBytes > 10_000, `GET ${bundlePath} answered ${bundle.status} with ${bundleBytes} bytes`);
  log(`/console/ and its bundle answer 200 (${Math.round(bundleBytes / 1024)} KiB)`);
  const reports: StopReport[] = [];
  reports.push(await checkGracefulStop(started, "SIGTERM", "pid", token, PARTNER));
  started = undefined;

  // The production CLIs, on the data the server left.
  const list = cli("tenant", "--", "list");
  must(list.code === 0 && (JSON.parse(list.stdout) as Array<{ id: string }>).some((p) => p.id === PARTNER), `npm run tenant -- list: ${list.stdout}${list.stderr}`);
  const minted = cli("token", "--", OWNER);
  must(minted.code === 0, `npm run token: ${minted.stderr}`);
  const token2 = (JSON.parse(minted.stdout) as { token: string }).token;
  const jobs = cli("jobs", "--", "housekeeping");
  must(jobs.code === 0, `npm run jobs -- housekeeping: ${jobs.stdout}${jobs.stderr}`);
  log("npm run tenant -- list, npm run token and npm run jobs work");

  // Second start: the in-flight write of the first stop was kept; then Ctrl-C.
  started = await startViaNpm({ cwd: app, env: serverEnv });
  const locs = await getJson(started, `/api/assets/locations?partnerId=${PARTNER}`, token2);
  must(locs.status === 200 && locs.body?.items?.some((l) => l.name?.startsWith("In-flight SIGTERM")), `the in-flight write is missing after a restart: ${JSON.stringify(locs.body)}`);
  reports.push(await checkGracefulStop(started, "SIGINT", "group", token2, PARTNER));
  started = undefined;
  for (const r of reports) {
    log(
      `${r.signal} to ${r.target === "pid" ? "npm's PID" : "the process group"}: in-flight write ${r.inFlightStatus}, port closed after ${r.msToPortClosed} ms, ` +
        `all ${r.processes.length} processes (${r.processes.join(", ")}) gone after ${r.msToAllExited} ms, npm exit ${r.npmExit.code}`,
    );
  }
  log(`passed in ${secs(performance.now() - t0)}`);
  rmSync(work, { recursive: true, force: true });
} catch (err) {
  if (started) {
    try {
      process.kill(-started.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  process.stderr.write(`[production-smoke] FAILED after ${secs(performance.now() - t0)}: ${err instanceof Error ? err.message : String(err)}\n(left ${work} for inspection)\n`);
  process.exit(1);
}
