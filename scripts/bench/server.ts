// A server under test, run by scripts/bench.ts as a child process so the load
// generator never shares its event loop. BENCH_MODE picks it:
//   app    the real app (createApp) plus GET /__bench/memory (bench-only, never in the app)
//   hello  a bare Bun.serve hello world
//   raw    bare Bun.serve routes doing the API's SQL work through @libsql/client (raw.ts)
//   bun    the same routes through bun:sqlite
// BENCH_CONFIG is the JSON environment given to loadConfig; BENCH_USER the raw
// routes' user. Prints "READY <port>" once listening; SIGTERM closes cleanly.
import { loadConfig } from "../../src/env.ts";
import { createDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { rawRoutes } from "./raw.ts";
import { readdirSync } from "node:fs";

/** Open file descriptors of this process (Linux), or -1 where /proc is missing. */
function openFds(): number {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return -1;
  }
}

const mode = process.env.BENCH_MODE;
const config = loadConfig(JSON.parse(process.env.BENCH_CONFIG ?? "{}") as Record<string, string>);
const listen = { port: 0, hostname: "127.0.0.1" } as const;

let server: ReturnType<typeof Bun.serve>;
let close: () => void | Promise<void> = () => {};

if (mode === "hello") {
  server = Bun.serve({ ...listen, fetch: () => new Response("Hello, world!") });
} else if (mode === "app") {
  const deps = await createDeps(config);
  const app = createApp(deps);
  server = Bun.serve({
    ...listen,
    routes: {
      "/__bench/memory": () => {
        Bun.gc(true);
        const m = process.memoryUsage();
        return Response.json({ rss: m.rss, heapUsed: m.heapUsed, openTenants: deps.tenancy.openCount, openFds: openFds() });
      },
    },
    fetch: (req) => app.fetch(req),
  });
  close = () => deps.tenancy.close();
} else if (mode === "raw" || mode === "bun") {
  const urlFor = (partnerId: string) => config.tenantDbUrlTemplate.replaceAll("{partnerId}", partnerId);
  const raw = rawRoutes(urlFor, process.env.BENCH_USER ?? "bench-user", mode === "bun" ? "bun" : "libsql");
  server = Bun.serve({ ...listen, routes: raw.routes, fetch: () => new Response("not found", { status: 404 }) });
  close = raw.close;
} else {
  throw new Error(`BENCH_MODE must be app, hello, raw or bun, not ${JSON.stringify(mode)}`);
}

process.on("SIGTERM", () => {
  void server
    .stop(true)
    .then(() => close())
    .finally(() => process.exit(0));
});
console.log(`READY ${server.port}`);
