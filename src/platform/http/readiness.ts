// Readiness (GET /readyz): can this instance serve traffic now? It checks what every
// request or job depends on — the registry (a trivial read), the content store (the
// directory is there and writable, or the S3 bucket answers a list of one) and, when
// configured, the clamd scanner (PING → PONG) — each with a short timeout, and says
// "not ready" as soon as shutdown begins (main.ts stop()), while in-flight requests
// finish. Results are kept for a second, so a storm of probes costs one check.
// Outcomes name the check, never a host, path, bucket or error message.
import { connect } from "node:net";
import type { Config } from "../config.ts";
import type { Tenancy } from "../tenancy/tenancy.ts";
import type { ContentStore } from "../blobs/content-store.ts";
import { partners } from "../tenancy/registry.tables.ts";
import type { Logger } from "../log.ts";
import { errorFacts } from "../errors/app-error.ts";

export type ReadinessCheck = "registry" | "contentStore" | "scanner";
export type CheckOutcome = "ok" | "failed" | "timeout";

export interface ReadinessReport {
  ready: boolean;
  /** Shutdown has begun: not ready whatever the checks say (none are run). */
  shuttingDown: boolean;
  checks: Partial<Record<ReadinessCheck, CheckOutcome>>;
}

/** A check resolves when its dependency answers, and rejects (or times out) when it does not. */
export type Probe = () => Promise<void>;

export interface ReadinessOptions {
  /** How long a report is reused (default 1000 ms). */
  cacheMs?: number;
  /** Per check (default 2000 ms). */
  timeoutMs?: number;
  log?: Logger;
}

export class Readiness {
  readonly #probes: Array<[ReadinessCheck, Probe]>;
  readonly #cacheMs: number;
  readonly #timeoutMs: number;
  readonly #log: Logger | undefined;
  #shuttingDown = false;
  #last: { at: number; report: Promise<ReadinessReport> } | undefined;
  #lastFailed = "";

  constructor(probes: Partial<Record<ReadinessCheck, Probe>>, opts: ReadinessOptions = {}) {
    this.#probes = Object.entries(probes).filter((e): e is [ReadinessCheck, Probe] => e[1] !== undefined);
    this.#cacheMs = opts.cacheMs ?? 1000;
    this.#timeoutMs = opts.timeoutMs ?? 2000;
    this.#log = opts.log;
  }

  /** Shutdown has begun: from now on every report is "not ready". */
  beginShutdown(): void {
    this.#shuttingDown = true;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** The current report: cached for `cacheMs`, and one check at a time however many ask. */
  report(): Promise<ReadinessReport> {
    if (this.#shuttingDown) return Promise.resolve({ ready: false, shuttingDown: true, checks: {} });
    const now = performance.now();
    if (this.#last && now - this.#last.at < this.#cacheMs) return this.#last.report;
    const report = this.#run();
    this.#last = { at: now, report };
    return report;
  }

  async #run(): Promise<ReadinessReport> {
    const outcomes = await Promise.all(this.#probes.map(([name, probe]) => this.#check(name, probe)));
    const checks: ReadinessReport["checks"] = {};
    for (const [name, outcome] of outcomes) checks[name] = outcome;
    const failed = outcomes.filter(([, o]) => o !== "ok").map(([n]) => n).join(",");
    if (failed !== this.#lastFailed) {
      // Only changes are logged: a failing dependency under a probe every second is one line, not one a second.
      if (failed) this.#log?.warn("not ready", { checks });
      else this.#log?.info("ready again", { checks });
      this.#lastFailed = failed;
    }
    return { ready: failed === "", shuttingDown: this.#shuttingDown, checks };
  }

  async #check(name: ReadinessCheck, probe: Probe): Promise<[ReadinessCheck, CheckOutcome]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), this.#timeoutMs)));
    try {
      const outcome = await Promise.race([probe().then(() => "ok" as const), timeout]);
      return [name, outcome];
    } catch (err) {
      this.#log?.debug("readiness check failed", { check: name, ...errorFacts(err) });
      return [name, "failed"];
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The service's checks, from its configuration and dependencies. */
export function serviceReadiness(config: Config, tenancy: Tenancy, contentStore: ContentStore, opts: ReadinessOptions = {}): Readiness {
  return new Readiness(
    {
      registry: async () => {
        await tenancy.registry.read.select({ id: partners.id }).from(partners).limit(1);
      },
      contentStore: async () => {
        // The store's own check (directory writable, S3 bucket listed); a stand-in without one: any answer to a look-up.
        if (contentStore.probe) await contentStore.probe();
        else await contentStore.exists("readiness-probe");
      },
      scanner: config.clamd ? () => pingClamd(config.clamd!, opts.timeoutMs ?? 2000) : undefined,
    },
    opts,
  );
}

/** clamd's PING: `zPING\0` answered by `PONG\0`. */
export function pingClamd(server: { host: string; port: number }, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolvePing, reject) => {
    const socket = connect({ host: server.host, port: server.port });
    let reply = "";
    const done = (err?: Error) => {
      socket.destroy();
      if (err) reject(err);
      else resolvePing();
    };
    socket.setTimeout(timeoutMs, () => done(Object.assign(new Error("clamd timed out"), { code: "ETIMEDOUT" })));
    socket.once("connect", () => socket.write("zPING\0"));
    socket.on("data", (d: Buffer) => {
      reply += d.toString("latin1");
      if (reply.includes("\0") || reply.length > 64) {
        done(reply.replace(/\0.*$/s, "").trim() === "PONG" ? undefined : Object.assign(new Error("clamd did not answer PONG"), { code: "EPROTO" }));
      }
    });
    socket.once("end", () => done(reply.trim() === "PONG" ? undefined : Object.assign(new Error("clamd closed without PONG"), { code: "EPROTO" })));
    socket.once("error", (e) => done(e));
  });
}
