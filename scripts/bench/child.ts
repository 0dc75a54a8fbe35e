// Starts scripts/bench/server.ts in a child Bun process and waits for its port.
import { join } from "node:path";

export interface ServerChild {
  mode: string;
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startServer(mode: "app" | "ref", config: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<ServerChild> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "server.ts")], {
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
  return {
    mode,
    origin: `http://127.0.0.1:${port}`,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      const timeout = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      await proc.exited;
      clearTimeout(timeout);
    },
  };
}
