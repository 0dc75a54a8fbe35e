// A server under test, run by scripts/bench.ts as a child process (started once,
// measured in turns with its counterpart). BENCH_MODE picks it:
//   app  the real app (createApp) plus GET /__bench/memory (bench-only, never in the app)
//   ref  the honest references (./reference.ts) built from the specs in the JSON
//        file BENCH_SPECS, plus the bare hello world at /hello
// BENCH_CONFIG is the JSON environment given to loadConfig; with REUSE_PORT=true in it
// the server listens with SO_REUSEPORT, on BENCH_PORT when given (a second instance on
// the first one's port, ./child.ts), else on a free port. Prints "READY <port>" once
// listening; SIGTERM closes cleanly.
import { readFileSync, readdirSync } from "node:fs";
import { loadConfig } from "../../src/env.ts";
import { createDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { createReference, type ReferenceSpecs } from "./reference.ts";

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
const listen = { port: Number(process.env.BENCH_PORT ?? 0), hostname: "127.0.0.1", reusePort: config.reusePort } as const;

let server: ReturnType<typeof Bun.serve>;
let close: () => void | Promise<void> = () => {};
const memory = (openTenants: () => number) => () => {
  Bun.gc(true);
  const m = process.memoryUsage();
  return Response.json({ rss: m.rss, heapUsed: m.heapUsed, openTenants: openTenants(), openFds: openFds() });
};

if (mode === "app") {
  const deps = await createDeps(config);
  const app = createApp(deps);
  server = Bun.serve({
    ...listen,
    routes: { "/__bench/memory": memory(() => deps.tenancy.openCount) },
    fetch: (req) => app.fetch(req),
  });
  close = () => deps.tenancy.close();
} else if (mode === "ref") {
  const specs = JSON.parse(readFileSync(process.env.BENCH_SPECS ?? "", "utf8")) as ReferenceSpecs;
  const urlFor = (partnerId: string) => config.tenantDbUrlTemplate.replaceAll("{partnerId}", partnerId);
  const ref = createReference(specs, urlFor);
  server = Bun.serve({ ...listen, routes: { ...ref.routes, "/__bench/memory": memory(() => 0) }, fetch: () => new Response("not found", { status: 404 }) });
  close = () => ref.close();
} else {
  throw new Error(`BENCH_MODE must be app or ref, not ${JSON.stringify(mode)}`);
}

process.on("SIGTERM", () => {
  void server
    .stop(true)
    .then(() => close())
    .finally(() => process.exit(0));
});
console.log(`READY ${server.port}`);
