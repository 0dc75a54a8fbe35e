// Starts scripts/bench/server.ts in child Bun processes and waits for their port. With
// `instances` above 1 they are started one after the other on one port with
// SO_REUSEPORT (REUSE_PORT=true, as two instances of the service run on one host): the
// first picks a free port, the others listen on it too, and the kernel spreads wrk's
// connections over them.
import { join } from "node:path";

export interface ServerChild {
  mode: string;
  origin: string;
  /** The first process's pid. */
  pid: number;
  /** Every process of the group (the CPU they use is the scenario's own). */
  pids: number[];
  stop(): Promise<void>;
}

/** Where app servers write CPU profiles (`npm run bench -- --profile dir`), or undefined. */
let profileDir: string | undefined;
export function profileAppServersInto(dir: string | undefined): void {
  profileDir = dir;
}

async function startOne(mode: "app" | "ref", config: Record<string, string>, extraEnv: Record<string, string>) {
  const profile = mode === "app" && profileDir ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${profileDir}`] : [];
  const proc = Bun.spawn([process.execPath, ...profile, join(import.meta.dir, "server.ts")], {
    env: { ...process.env, ...extraEnv, BENCH_MODE: mode, BENCH_CONFIG: JSON.stringify(config) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode} server did not start within 60 s`)), 60_000);
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          clearTimeout(timer);
          reject(new Error(`${mode} server exited before listening (code ${await proc.exited})`));
          return;
        }
        seen += decoder.decode(value, { stream: true });
        const m = /READY (\d+)/.exec(seen);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
          // Keep draining so a chatty child can never block on a full pipe.
          while (!(await reader.read()).done);
          return;
        }
      }
    })();
  });
  const stop = async () => {
    proc.kill("SIGTERM");
    const timeout = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    await proc.exited;
    clearTimeout(timeout);
  };
  return { port, pid: proc.pid, stop };
}

export async function startServer(mode: "app" | "ref", config: Record<string, string>, extraEnv: Record<string, string> = {}, instances = 1): Promise<ServerChild> {
  const shared = instances > 1 ? { ...config, REUSE_PORT: "true" } : config;
  const first = await startOne(mode, shared, extraEnv);
  const all = [first];
  try {
    for (let i = 1; i < instances; i++) all.push(await startOne(mode, shared, { ...extraEnv, BENCH_PORT: String(first.port) }));
  } catch (err) {
    await Promise.all(all.map((p) => p.stop()));
    throw err;
  }
  return {
    mode,
    origin: `http://127.0.0.1:${first.port}`,
    pid: first.pid,
    pids: all.map((p) => p.pid),
    async stop() {
      await Promise.all(all.map((p) => p.stop()));
    },
  };
}
