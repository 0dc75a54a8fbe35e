// What every request and job reaches the outside through: built once by
// src/deps.ts (createDeps) and passed in, so tests swap directories, clock and fakes.
import type { Config } from "./config.ts";
import type { Tenancy } from "./tenancy/tenancy.ts";
import type { TokenVerifier } from "./auth/token.ts";
import type { ContentStore } from "./blobs/content-store.ts";
import type { RateLimiter } from "./ratelimit/rate-limiter.ts";
import type { Logger } from "./log.ts";
import type { Readiness } from "./http/readiness.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { EventHub } from "./events/hub.ts";
import { lookup } from "node:dns/promises";

export interface Clock {
  now(): Date;
}

export interface Deps {
  config: Config;
  clock: Clock;
  newId(): string;
  tenancy: Tenancy;
  tokens: TokenVerifier;
  cursorKey: Uint8Array;
  contentStore: ContentStore;
  log: Logger;
  fetch: typeof fetch;
  /** A host name's addresses (webhooks check them, then connect to one without resolving again); tests script the answers. */
  resolveHost: HostResolver;
  rateLimiter: RateLimiter;
  /** What GET /readyz reports: its checks, and "not ready" once shutdown has begun (main.ts stop()). */
  readiness: Readiness;
  /** Outbound e-mail over SMTP_URL (nodemailer, pooled); tests pass one that trusts their loopback relay. */
  mailer: Mailer;
  /** The live event streams' hub (src/platform/events/hub.ts): the outbox tells it of commits; main.ts closes it on stop. */
  events: EventHub;
}

export type HostResolver = (host: string) => Promise<string[]>;

/** Every address of a name, in the system resolver's order (`node:dns` lookup, all, verbatim). */
export const systemResolveHost: HostResolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export const systemClock: Clock = { now: () => new Date() };

