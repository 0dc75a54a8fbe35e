// Every test file gets its own TENANTS_DIR, deps and app; nothing is shared.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { randomBytes } from "node:crypto";
import { loadConfig } from "../src/env.ts";
import { createDeps, type Deps, type Clock } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { mintToken, type MintOptions } from "../src/platform/auth/mint.ts";
import { upsertMember } from "../src/platform/tenancy/members.ts";
import type { Role } from "../src/platform/auth/capabilities.ts";
import { startHranaServer, type HranaServer } from "./fakes/hrana-server.ts";
import { allRoutes } from "../src/routes.ts";
import { fullPath, routePattern } from "../src/app.ts";
import type { AnyRoute } from "../src/platform/http/define-route.ts";
import { createLogger, type Logger } from "../src/platform/log.ts";
import { SecretLedger, callerTestFile, describeFindings, scanTotals, unclosedEnvs } from "./secret-scan.ts";

/** Route templates as regular expressions, static paths first (they win over `{id}`). */
const ROUTE_TABLE = [...allRoutes]
  .sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")))
  .map((r) => ({ route: r, method: r.method.toUpperCase(), re: routePattern(r) }));

function routeOf(method: string, path: string): AnyRoute | undefined {
  const m = method === "HEAD" ? "GET" : method;
  const pathname = path.split("?")[0]!;
  return ROUTE_TABLE.find((t) => t.method === m && t.re.test(pathname))?.route;
}

/**
 * Every 2xx JSON body must parse through the schema its route declares for that
 * status: the published document may not promise what the server does not send.
 */
export function assertDeclaredResponse(method: string, path: string, status: number, body: unknown): void {
  if (status < 200 || status >= 300 || body === undefined) return;
  const route = routeOf(method, path);
  const schema = route?.responses[status]?.schema;
  if (!route || !schema) return;
  const r = schema.safeParse(body);
  if (!r.success) {
    throw new Error(`${method} ${path} answered ${status} with a body its declared schema refuses: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
  }
}

export const TEST_SECRET = "test-secret-of-at-least-32-bytes-long!!";

/**
 * The driver the suites run on: `bun:sqlite` (local files, the default) or, with
 * TEST_DB_DRIVER=libsql, @libsql/client against a loopback libSQL server
 * (test/fakes/hrana-server.ts). `npm test` runs the driver-sensitive suites both ways.
 */
export const TEST_DB_DRIVER: "bun:sqlite" | "libsql" = process.env.TEST_DB_DRIVER === "libsql" ? "libsql" : "bun:sqlite";

/** The libSQL server namespace the registry lives in, in libsql mode (no test partner takes this id). */
export const REGISTRY_NAMESPACE = "registry-db";

export interface TestEnv {
  dir: string;
  /** The driver partner databases of this env run on. */
  driver: "bun:sqlite" | "libsql";
  deps: Deps;
  app: ReturnType<typeof createApp>;
  provision(partnerId: string): Promise<void>;
  member(partnerId: string, userId: string, role: Role, displayName?: string): Promise<void>;
  token(userId: string, opts?: MintOptions): Promise<string>;
  /** A request through app.fetch with JSON in and out. */
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /**
   * Secrets that passed through this env (tokens it minted, one-time secrets its
   * answers showed, numbers and codes tests sent); add more with `secrets.add`.
   * close() fails when one of them, or a generic secret format, is in a file under
   * `dir`, in a log line, or in an answer of `app` other than the one-time show the
   * contract allows (test/secret-scan.ts).
   */
  secrets: SecretLedger;
  /** Every log line of this env, captured at debug level (printed only when LOG_LEVEL asks). */
  logLines: string[];
  /** Scans for secrets (databases open, then closed), closes everything and removes `dir`; throws on a finding. */
  close(): void;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  idem?: string | false;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export class MutableClock implements Clock {
  constructor(public current = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export async function createTestEnv(env: Record<string, string> = {}, overrides: Partial<Omit<Deps, "config">> = {}): Promise<TestEnv> {
  const dir = mkdtempSync(join(tmpdir(), "svc-test-"));
  let server: HranaServer | undefined;
  const remote: Record<string, string> = {};
  if (TEST_DB_DRIVER === "libsql" && env.TENANT_DB_URL === undefined) {
    const authToken = randomBytes(16).toString("hex");
    mkdirSync(join(dir, "libsql-server"));
    server = startHranaServer({ dir: join(dir, "libsql-server"), authToken });
    remote.TENANT_DB_URL = server.template;
    remote.TENANT_DB_AUTH_TOKEN = authToken;
    // The registry on the same server (its own namespace), as instances sharing it run.
    if (env.REGISTRY_DB_URL === undefined) remote.REGISTRY_DB_URL = server.template.replace("{partnerId}", REGISTRY_NAMESPACE);
  }
  const vars: Record<string, string> = {
    TENANTS_DIR: dir,
    DASHBOARD_JWT_SECRET: TEST_SECRET,
    DATA_KEK: randomBytes(32).toString("base64"),
    JOBS: "off",
    RATE_LIMIT_PER_MINUTE: "0",
    LOG_LEVEL: "silent",
    ...remote,
    ...env,
  };
  const config = loadConfig(vars);
  // Every line is captured at debug level for the scan; it is printed only when LOG_LEVEL asks.
  const logLines: string[] = [];
  const capture = createLogger("debug", { write: (line) => void logLines.push(line) });
  const shown = config.logLevel === "silent" ? undefined : createLogger(config.logLevel);
  const forward = [capture, overrides.log, shown].filter((l): l is Logger => l !== undefined);
  const log: Logger = {
    debug: (m, f) => forward.forEach((l) => l.debug(m, f)),
    info: (m, f) => forward.forEach((l) => l.info(m, f)),
    warn: (m, f) => forward.forEach((l) => l.warn(m, f)),
    error: (m, f) => forward.forEach((l) => l.error(m, f)),
  };
  const secrets = new SecretLedger();
  for (const name of ["DATA_KEK", "DASHBOARD_JWT_SECRET", "AMS_WEBHOOK_ENCRYPTION_KEY", "SCHEDULER_SECRET", "MESSENGER_A_BOT_TOKEN", "MESSENGER_B_BOT_TOKEN", "S3_SECRET_ACCESS_KEY", "TENANT_DB_AUTH_TOKEN"]) {
    secrets.add("configured secret", vars[name]);
  }
  if (vars.SMTP_URL) secrets.add("configured secret", decodeURIComponent(new URL(vars.SMTP_URL).password));
  const testFile = callerTestFile();
  const deps = await createDeps(config, { ...overrides, log });
  // Every blob key the content store is given: never to be seen in a response or a log line.
  const store = deps.contentStore;
  const put = store.put.bind(store);
  store.put = (key, ...rest) => {
    secrets.add("storage key", key);
    return put(key, ...rest);
  };
  const app = createApp(deps);
  // Every answer of the app (env.call, the kit, tests that fetch or serve env.app directly) is kept for the scan on close.
  const appFetch = app.fetch;
  app.fetch = (async (req: Request, ...rest: unknown[]) => {
    const res = await (appFetch as (req: Request, ...rest: unknown[]) => Promise<Response>)(req, ...rest);
    const route = routeOf(req.method, new URL(req.url).pathname);
    secrets.recordResponse(req.method, route ? fullPath(route) : undefined, route?.operationId, res);
    return res;
  }) as typeof app.fetch;
  let n = 0;
  const te: TestEnv = {
    dir,
    driver: config.tenantDbUrlTemplate.startsWith("file:") ? "bun:sqlite" : "libsql",
    deps,
    app,
    async provision(partnerId) {
      await deps.tenancy.provision(partnerId, partnerId, deps.clock.now().toISOString());
    },
    async member(partnerId, userId, role, displayName) {
      await upsertMember(deps, { partnerId, userId, role, displayName });
    },
    secrets,
    logLines,
    async token(userId, opts) {
      const token = await mintToken(TEST_SECRET, userId, { now: deps.clock.now(), ...opts });
      secrets.add("bearer token", token);
      return token;
    },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers["content-type"] ??= "application/json";
      }
      if (method !== "GET" && opts.idem !== false && headers["idempotency-key"] === undefined) {
        headers["idempotency-key"] = opts.idem ?? `k-${++n}-${Math.random().toString(36).slice(2)}`;
      }
      const res = await app.fetch(new Request(`http://test.local${path}`, { method, headers, body }));
      // A live event stream never ends by itself: its status and headers, and the client leaves (test/fakes/sse-client.ts reads one).
      if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        await res.body?.cancel();
        return { status: res.status, headers: res.headers, body: undefined };
      }
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* non-JSON bodies stay text */
      }
      if ((res.headers.get("content-type") ?? "").startsWith("application/json")) assertDeclaredResponse(method, path, res.status, parsed);
      secrets.collectCall(routeOf(method, path)?.operationId, path, opts.body, { body: parsed, headers: res.headers });
      return { status: res.status, headers: res.headers, body: parsed };
    },
    close() {
      unclosedEnvs.delete(te);
      // Databases open (WAL and journal present), then closed (checkpointed); a TENANTS_DIR or
      // content store the test put elsewhere (another env's) is scanned too.
      const places = [...new Set([dir, resolve(config.tenantsDir), config.contentStore.startsWith("file:") ? resolve(config.contentStore.slice(5)) : dir])];
      const roots = places.filter((p) => !places.some((o) => p.startsWith(o + sep)));
      const found = secrets.scan(roots, logLines, "databases open");
      found.push(...secrets.scanResponses("responses"));
      deps.events.close();
      deps.tenancy.close();
      deps.mailer.close();
      found.push(...secrets.scan(roots, logLines, "databases closed"));
      scanTotals.envs++;
      scanTotals.needles += secrets.needles;
      scanTotals.findings += found.length;
      void server?.stop();
      rmSync(dir, { recursive: true, force: true });
      if (found.length > 0) throw new Error(describeFindings(testFile, found));
    },
  };
  unclosedEnvs.add(te);
  return te;
}
