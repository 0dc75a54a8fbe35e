// Starting the service the README way (`npm start`) and stopping it with a signal, as a
// supervisor or a terminal does, with a request still in flight. Used by the production
// smoke test (scripts/ci/production-smoke.ts, on a production install) and by
// test/main.test.ts (on the development install). Nothing here is part of the product.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";

export interface Started {
  /** npm's PID: what `npm start` creates, and what a supervisor signals. */
  pid: number;
  child: ChildProcess;
  url: string;
  port: number;
  /** Every line the service printed so far, stdout and stderr interleaved. */
  lines: string[];
  /** The first-start bearer token, when this start provisioned the demo partner. */
  token?: string;
  /** Milliseconds from spawning npm to the first 200 from /healthz. */
  msToFirst200: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  cwd: string;
  env: Record<string, string>;
  /** The command line; the README's is `npm start`. */
  argv?: string[];
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `pred` holds, or throws `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, pred: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * Spawns the command in its own process group (as a terminal or supervisor does), waits
 * for the listen line and a 200 from /healthz. PORT=0 in `env` picks a free port; the
 * printed listen line says which.
 */
export async function startViaNpm(opts: StartOptions): Promise<Started> {
  const argv = opts.argv ?? ["npm", "start"];
  const t0 = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let buf = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      buf += chunk;
      const parts = buf.split("\n");
      buf = parts.pop()!;
      lines.push(...parts);
    });
    stream?.on("end", () => buf && lines.push(buf));
  };
  collect(child.stdout);
  collect(child.stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
  let done = false;
  void exited.then(() => (done = true));
  const pid = child.pid!;
  try {
    const url = await waitFor(`the listen line of ${argv.join(" ")}`, opts.timeoutMs ?? 30_000, () => {
      if (done) throw new Error(`${argv.join(" ")} exited before listening`);
      return lines.map((l) => /^listening on (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
    });
    await waitFor("a 200 from /healthz", 10_000, async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200);
    const msToFirst200 = Math.round(performance.now() - t0);
    const token = lines.map((l) => /^bearer token \([^)]*\): (\S+)$/.exec(l)?.[1]).find(Boolean);
    return { pid, child, url, port: Number(new URL(url).port), lines, token, msToFirst200, exited };
  } catch (err) {
    killGroup(pid, "SIGKILL");
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- output ---\n${lines.join("\n")}`);
  }
}

/** Last resort for a failed check: the whole process group, so nothing is left serving. */
export function killGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** PIDs of `root` and all its descendants (Linux /proc, else `ps`). */
export function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  if (existsSync("/proc/self/stat")) {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        // pid (comm) state ppid …; comm may hold spaces and parentheses.
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        parentOf.set(Number(name), ppid);
      } catch {
        /* exited meanwhile */
      }
    }
  } else {
    const out = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid="]).stdout.toString();
    for (const line of out.trim().split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      parentOf.set(pid!, ppid!);
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parentOf) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  return tree;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers kill 0 until reaped; it no longer runs anything.
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return !existsSync("/proc/self/stat");
  }
}

/** True when a new TCP connection to the port is refused (nothing listens any more). */
export function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ port, host: "127.0.0.1" });
    s.once("connect", () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(true));
  });
}

/**
 * An HTTP request whose body is still arriving: the headers and half the body are sent
 * now, the rest on `finish()`, which resolves with the status and body.
 */
export async function openSlowRequest(port: number, method: string, path: string, headers: Record<string, string>, body: string) {
  const bytes = Buffer.from(body, "utf8");
  const head =
    `${method} ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\nContent-Length: ${bytes.length}\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("") +
    "\r\n";
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect({ port, host: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  const closed = new Promise<void>((r) => socket.once("close", () => r()));
  const half = Math.floor(bytes.length / 2);
  socket.write(head);
  socket.write(bytes.subarray(0, half));
  return {
    async finish(): Promise<{ status: number; body: string }> {
      socket.end(bytes.subarray(half));
      await closed;
      const raw = Buffer.concat(chunks).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      let text = raw.slice(raw.indexOf("\r\n\r\n") + 4);
      if (/\r\ntransfer-encoding: chunked\r\n/i.test(raw.slice(0, raw.indexOf("\r\n\r\n") + 2))) text = unchunk(text);
      return { status, body: text };
    },
  };
}

function unchunk(s: string): string {
  let out = "";
  let rest = s;
  for (;;) {
    const i = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, i), 16);
    if (!size) return out;
    out += rest.slice(i + 2, i + 2 + size);
    rest = rest.slice(i + 2 + size + 2);
  }
}

class CheckFailed extends Error {}

export interface StopReport {
  signal: NodeJS.Signals;
  target: "pid" | "group";
  processes: number[];
  inFlightStatus: number;
  msToPortClosed: number;
  msToAllExited: number;
  npmExit: { code: number | null; signal: NodeJS.Signals | null };
}

/**
 * The graceful-stop check: with a write still receiving its body, signal npm's PID (a
 * supervisor) or its whole process group (Ctrl-C in a terminal), then require that the
 * server logs the signal, stops accepting connections, completes the in-flight write
 * with 201, logs a graceful end, and that every process of the tree exits (npm with 0).
 */
export async function checkGracefulStop(s: Started, signal: NodeJS.Signals, target: "pid" | "group", token: string, partnerId = "demo"): Promise<StopReport> {
  const processes = processTree(s.pid);
  const fail = (msg: string): never => {
    for (const p of processes) killGroup(p);
    throw new CheckFailed(`${msg}\n--- process tree ${processes.join(" ")} ---\n--- output ---\n${s.lines.join("\n")}`);
  };
  const failOn = (e: unknown): never => {
    if (e instanceof CheckFailed) throw e;
    return fail(String(e));
  };
  // Not vacuous: the port accepts before the signal.
  if (await portRefuses(s.port)) fail(`port ${s.port} refuses connections before the signal`);
  // A name unique to this stop, so a second check on the same data does not collide.
  const name = `In-flight ${signal} ${Date.now()}`;
  const slow = await openSlowRequest(
    s.port,
    "POST",
    `/api/assets/locations?partnerId=${partnerId}`,
    { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": `inflight-${signal}-${Date.now()}` },
    JSON.stringify({ name, kind: "site" }),
  );
  // The server has the request (headers and half the body) before the signal is sent.
  await sleep(300);
  const t0 = performance.now();
  process.kill(target === "group" ? -s.pid : s.pid, signal);
  await waitFor(`the server to log "shutting down" for ${signal}`, 10_000, () => {
    if (!processes.some(isAlive)) fail(`every process exited on ${signal} without the server logging a graceful shutdown`);
    return s.lines.some((l) => l.includes('"shutting down"') && l.includes(signal));
  }).catch(failOn);
  await waitFor("the port to refuse new connections", 10_000, () => portRefuses(s.port)).catch(failOn);
  const msToPortClosed = Math.round(performance.now() - t0);
  if (!processes.some(isAlive)) fail("the server exited before the in-flight request finished");
  const answer = await slow.finish();
  if (answer.status !== 201) fail(`the in-flight request answered ${answer.status}: ${answer.body}`);
  if (!answer.body.includes(`"name":${JSON.stringify(name)}`)) fail(`the in-flight request answered another body: ${answer.body}`);
  await waitFor("every process of the tree to exit", 20_000, () => !processes.some(isAlive)).catch((e) => fail(`${e} (alive: ${processes.filter(isAlive).join(" ")})`));
  const msToAllExited = Math.round(performance.now() - t0);
  const npmExit = await s.exited;
  // Output may trail the exit by a tick.
  await sleep(50);
  if (!s.lines.some((l) => l.includes('"shut down gracefully"') && l.includes(signal))) fail(`no "shut down gracefully" line for ${signal}`);
  if (npmExit.code !== 0) fail(`npm exited with ${JSON.stringify(npmExit)}`);
  return { signal, target, processes, inFlightStatus: answer.status, msToPortClosed, msToAllExited, npmExit };
}
