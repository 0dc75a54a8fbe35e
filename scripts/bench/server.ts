// A server under test, run by scripts/bench.ts as a child process so the load
// generator never shares its event loop. BENCH_MODE picks it:
//   app    the real app (createApp) plus GET /__bench/memory (bench-only, never in the app)
//   hello  a bare Bun.serve hello world
//   raw    bare Bun.serve routes doing the API's SQL work directly (raw.ts)
// BENCH_CONFIG is the JSON environment given to loadConfig; BENCH_USER the raw
// routes' user. Prints "READY <port>" once listening; SIGTERM closes cleanly.
import { loadConfig } from "../../src/env.ts";
import { createDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { rawRoutes } from "./raw.ts";

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
        return Response.json({ rss: m.rss, heapUsed: m.heapUsed, openTenants: deps.tenancy.openCount });
      },
    },
    fetch: (req) => app.fetch(req),
  });
  close = () => deps.tenancy.close();
} else if (mode === "raw") {
  const urlFor = (partnerId: string) => config.tenantDbUrlTemplate.replaceAll("{partnerId}", partnerId);
  const raw = rawRoutes(urlFor, process.env.BENCH_USER ?? "bench-user");
  server = Bun.serve({ ...listen, routes: raw.routes, fetch: () => new Response("not found", { status: 404 }) });
  close = raw.close;
} else {
  throw new Error(`BENCH_MODE must be app, hello or raw, not ${JSON.stringify(mode)}`);
}

process.on("SIGTERM", () => {
  void server
    .stop(true)
    .then(() => close())
    .finally(() => process.exit(0));
});
console.log(`READY ${server.port}`);
