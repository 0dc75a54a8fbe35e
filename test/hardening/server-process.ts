// The real server as a child process, for the hardening suites that kill it or run
// two of it: `bun run src/main.ts` (the entry `npm start` execs) with a test
// environment, its port read from the line it prints, its JSON log lines kept, and
// SIGKILL / SIGTERM on demand. A restart is a new process on the same files (or the
// same libSQL server). The control env (test/harness.ts createTestEnv) provisions
// partners and members, mints tokens and reads the databases; the child gets the
// same key material and database URLs from it.
import { join } from "node:path";
import type { TestEnv } from "../harness.ts";
import { TEST_SECRET } from "../harness.ts";

const ROOT = join(import.meta.dir, "..", "..");
const LISTENING_RE = /^listening on http:\/\/localhost:(\d+) /;

export interface ServerProcess {
  /** `http://127.0.0.1:<port>`: loopback without a name lookup. */
  url: string;
  port: number;
  pid: number;
  /** A label for messages ("A", "B", "crash #3"). */
  name: string;
  /** Every stderr line (the service's JSON log lines), in order. */
  logs: string[];
  /** Resolves with the exit code (null when a signal ended it) once the process is gone. */
  exited: Promise<number | null>;
  /** Sends the signal and waits until the process is gone (and reaped). */
  kill(signal?: "SIGKILL" | "SIGTERM"): Promise<number | null>;
  /** True until the process has exited. */
  alive(): boolean;
}

/** The variables every child of one control env shares (on top of PATH and HOME). */
export interface ServerEnvOptions {
  /** AMS_WEBHOOK_ENCRYPTION_KEY (base64 of 32 bytes). */
  webhookKey: string;
  /** DATA_KEK (base64 of 32 bytes): the control env must have been created with the same. */
  dataKek: string;
  schedulerSecret: string;
  /** LOG_LEVEL of the child (default warn: errors and warnings only, no access log). */
  logLevel?: string;
  extra?: Record<string, string>;
}

/** The child's environment: the control env's files or libSQL server, the same secrets, jobs off, no rate limit, any free port. */
export function serverEnv(te: TestEnv, o: ServerEnvOptions): Record<string, string> {
  const c = te.deps.config;
  const vars: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? te.dir,
    NODE_ENV: "development",
    TENANTS_DIR: te.dir,
    PORT: "0",
    JOBS: "off",
    RATE_LIMIT_PER_MINUTE: "0",
    LOG_LEVEL: o.logLevel ?? "warn",
    DASHBOARD_JWT_SECRET: TEST_SECRET,
    DATA_KEK: o.dataKek,
    AMS_WEBHOOK_ENCRYPTION_KEY: o.webhookKey,
    SCHEDULER_SECRET: o.schedulerSecret,
    WEBHOOK_ALLOW_PRIVATE: "1",
    ...o.extra,
  };
  if (te.driver === "libsql") {
    vars.TENANT_DB_URL = c.tenantDbUrlTemplate;
    if (c.tenantDbAuthToken) vars.TENANT_DB_AUTH_TOKEN = c.tenantDbAuthToken;
    vars.REGISTRY_DB_URL = c.registryDbUrl;
    if (c.registryDbAuthToken) vars.REGISTRY_DB_AUTH_TOKEN = c.registryDbAuthToken;
  }
  return vars;
}

async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of stream) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, nl);
      buf = buf.slice(nl + 1);
    }
  }
  if (buf) yield buf;
}

/**
 * Starts `bun run src/main.ts` with `env` and resolves once it listens. A start that
 * fails (exit before listening, or no listen line within `timeoutMs`) rejects with
 * its output. `onLog` sees every stderr line as it arrives (e.g. into the control
 * env's logLines, which its secret scan reads).
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { name?: string; timeoutMs?: number; onLog?: (line: string) => void } = {},
): Promise<ServerProcess> {
  const name = opts.name ?? "server";
  const proc = Bun.spawn([process.execPath, "run", join(ROOT, "src/main.ts")], {
    cwd: ROOT,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const logs: string[] = [];
  const out: string[] = [];
  let exitedFlag = false;
  const exited = proc.exited.then((code) => {
    exitedFlag = true;
    return proc.signalCode ? null : code;
  });
  void (async () => {
    for await (const line of linesOf(proc.stderr as ReadableStream<Uint8Array>)) {
      logs.push(line);
      opts.onLog?.(line);
    }
  })();
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`${name} did not listen within ${opts.timeoutMs ?? 15_000} ms:\n${[...out, ...logs].join("\n")}`));
    }, opts.timeoutMs ?? 15_000);
    void (async () => {
      for await (const line of linesOf(proc.stdout as ReadableStream<Uint8Array>)) {
        out.push(line);
        const m = LISTENING_RE.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      }
    })();
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? proc.signalCode}) before listening:\n${[...out, ...logs].join("\n")}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: proc.pid,
    name,
    logs,
    exited,
    alive: () => !exitedFlag,
    async kill(signal = "SIGKILL") {
      if (!exitedFlag) proc.kill(signal);
      return exited;
    },
  };
}

/** Log lines at level error (the service logs JSON lines with a `level` field). */
export function errorLines(logs: readonly string[]): string[] {
  return logs.filter((l) => {
    try {
      return (JSON.parse(l) as { level?: string }).level === "error";
    } catch {
      return true; // not a log line: a crash trace, which counts as an error
    }
  });
}
