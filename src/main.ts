// env → deps → app → Bun.serve; the in-process scheduler unless JOBS=off; on the
// first start with no partner, a `demo` partner with an owner and a ready token in
// development, and in production (no demo, never a token) a line saying how to
// create the first partner and its owner with the CLI.
import type { Server } from "bun";
import { loadConfig, ConfigError, type Config } from "./env.ts";
import { createDeps, type Deps } from "./deps.ts";
import { createApp } from "./app.ts";
import { startScheduler, type Scheduler } from "./jobs/index.ts";
import { mintToken } from "./platform/auth/mint.ts";
import { upsertMember } from "./platform/tenancy/members.ts";

export const DEMO_PARTNER = "demo";
export const DEMO_OWNER = "demo-owner";

export interface StartOptions {
  /** Overrides config.port; 0 picks a free port. */
  port?: number;
  hostname?: string;
  /** Where the start-up lines go (default stdout); tests capture them. */
  print?: (line: string) => void;
  /** Fakes for tests and the benchmark, as in createDeps. */
  overrides?: Parameters<typeof createDeps>[1];
  /** Set false to skip the first-run demo partner (the benchmark seeds its own). Never in production. */
  demo?: boolean;
}

/** What a production first start prints instead of provisioning a demo partner. */
export const FIRST_PARTNER_HINT =
  'no partner yet: create the first partner and its owner with `npm run tenant -- provision <partnerId> --name "<name>"` and `npm run tenant -- member <partnerId> <userId> --role owner`';

export interface DemoInfo {
  partnerId: string;
  userId: string;
  /** Absent when only a JWKS is configured: no token can be minted here then. */
  token?: string;
  curl?: string;
  url: string;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: Deps;
  server: Server<undefined>;
  scheduler: Scheduler;
  /** Present when this start provisioned the demo partner. */
  demo?: DemoInfo;
  /** Stops listening, lets in-flight requests and jobs finish, closes the databases. */
  stop(): Promise<void>;
}

/** Provisions `demo` with its owner when the registry lists no partner at all. */
async function provisionDemo(deps: Deps, baseUrl: string): Promise<DemoInfo | undefined> {
  if ((await deps.tenancy.listPartners()).length > 0) return undefined;
  const now = deps.clock.now();
  await deps.tenancy.provision(DEMO_PARTNER, "Demo", now.toISOString());
  await upsertMember(deps, { partnerId: DEMO_PARTNER, userId: DEMO_OWNER, role: "owner", displayName: "Demo Owner" });
  const url = `${baseUrl}/api/assets/saved-views?partnerId=${DEMO_PARTNER}`;
  const demo: DemoInfo = { partnerId: DEMO_PARTNER, userId: DEMO_OWNER, url };
  const { secret, issuer, audience } = deps.config.jwt;
  if (secret) {
    // Fresh AAL2 with a passkey, so step-up routes work with it for 15 minutes.
    demo.token = await mintToken(secret, DEMO_OWNER, { aal: "aal2", amr: ["passkey"], ageSeconds: 0, ttlSeconds: 3600, now, issuer, audience });
    demo.curl = `curl -H "Authorization: Bearer ${demo.token}" "${url}"`;
  }
  return demo;
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const print = opts.print ?? ((line: string) => process.stdout.write(line + "\n"));
  const deps = await createDeps(config, opts.overrides);
  let server: Server<undefined> | undefined;
  let scheduler: Scheduler | undefined;
  try {
    const app = createApp(deps);
    server = Bun.serve({ port: opts.port ?? config.port, hostname: opts.hostname, reusePort: config.reusePort, fetch: app.fetch });
    const port = server.port ?? config.port;
    const url = `http://localhost:${port}`;

    // The demo partner and its token are a development convenience: production starts empty.
    const demo = opts.demo === false || config.production ? undefined : await provisionDemo(deps, url);
    const empty = config.production && (await deps.tenancy.listPartners()).length === 0;
    scheduler = startScheduler(deps);

    print(`listening on ${url} (assets: ${url}/api/assets, planning: ${url}/api/planning, docs: ${url}/api/assets/docs)`);
    if (config.production) {
      // Never a token in production (callers sign in through the identity provider); an empty registry gets the CLI hint.
      if (empty) print(FIRST_PARTNER_HINT);
    } else if (demo) {
      print(`first start: provisioned partner "${demo.partnerId}" with owner "${demo.userId}"`);
      if (demo.token) {
        print(`bearer token (AAL2 passkey, valid 1 h): ${demo.token}`);
        print(`try: ${demo.curl}`);
      } else {
        print("no token printed: only DASHBOARD_JWKS_URL is configured; sign in through your identity provider");
      }
    } else if (opts.demo !== false && config.jwt.secret) {
      print(`a token for a member: npm run token -- <userId>   (e.g. npm run token -- ${DEMO_OWNER})`);
    }

    let stopping: Promise<void> | undefined;
    const srv = server;
    const sch = scheduler;
    return {
      url,
      port,
      deps,
      server: srv,
      scheduler: sch,
      demo,
      stop: () =>
        (stopping ??= (async () => {
          // Not ready from now on: /readyz answers 503 at once, so load balancers move new traffic
          // elsewhere; for SHUTDOWN_DRAIN_MS the listener still serves (the probe must see that 503).
          deps.readiness.beginShutdown();
          if (config.shutdownDrainMs > 0) await Bun.sleep(config.shutdownDrainMs);
          // Live event streams never finish by themselves: end them now (clients reconnect elsewhere
          // with Last-Event-ID), or the graceful stop would wait the full 10 s for them.
          deps.events.close();
          // Stop accepting; in-flight requests finish, unless they take longer than 10 s.
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            srv.stop(false),
            new Promise<void>((r) => (timer = setTimeout(() => r(srv.stop(true)), 10_000))),
          ]).finally(() => clearTimeout(timer));
          await sch.stop();
          deps.tenancy.close();
          deps.mailer.close();
        })()),
    };
  } catch (err) {
    // A failed start must not leave a socket or open databases behind.
    await scheduler?.stop();
    await server?.stop(true);
    deps.tenancy.close();
    throw err;
  }
}

if (import.meta.main) {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const running = await startServer(config);
  // Bun.cron reports a rejected callback as an unhandled rejection; runJob never
  // rejects, but nothing in a job may take the whole service down either.
  process.on("unhandledRejection", (reason) => {
    running.deps.log.error("unhandled rejection", { error: reason instanceof Error ? reason.name : typeof reason });
  });
  // SIGTERM (Docker, systemd, `kill`) or SIGINT (Ctrl-C) stops gracefully: no new
  // connections, in-flight requests (up to 10 s) and jobs finish, databases close.
  // `npm start` execs Bun, so npm forwards both to this process.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      // Ctrl-C under npm arrives twice (from the terminal, and forwarded by npm): a
      // repeat must not cut the drain short, and the drain is bounded anyway.
      running.deps.log.info("already shutting down", { signal });
      return;
    }
    stopping = true;
    running.deps.log.info("shutting down", { signal });
    running.stop().then(
      () => {
        running.deps.log.info("shut down gracefully", { signal });
        process.exit(0);
      },
      (err: unknown) => {
        running.deps.log.error("shutdown failed", { signal, error: err instanceof Error ? err.name : typeof err });
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
