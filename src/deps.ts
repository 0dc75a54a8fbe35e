// Everything the app needs from outside, built once in main.ts and passed in, so
// tests construct the same app with their own directories, clock and fakes. The
// types live in the platform (src/platform/deps.ts); this file wires them.
export { systemClock, type Clock, type Deps } from "./platform/deps.ts";
import type { Config } from "./env.ts";
import { systemClock, systemResolveHost, type Deps } from "./platform/deps.ts";
import { Tenancy } from "./platform/tenancy/tenancy.ts";
import { TokenVerifier } from "./platform/auth/token.ts";
import { derivePurposeKey } from "./platform/crypto/keys.ts";
import { createContentStore } from "./platform/blobs/content-store.ts";
import { RateLimiter } from "./platform/ratelimit/rate-limiter.ts";
import { createLogger } from "./platform/log.ts";
import { serviceReadiness } from "./platform/http/readiness.ts";
import { createMailer } from "./platform/mail/mailer.ts";
import { EventHub } from "./platform/events/hub.ts";

export async function createDeps(config: Config, overrides: Partial<Omit<Deps, "config">> = {}): Promise<Deps> {
  const tenancy =
    overrides.tenancy ??
    new Tenancy({
      tenantsDir: config.tenantsDir,
      urlTemplate: config.tenantDbUrlTemplate,
      authToken: config.tenantDbAuthToken,
      registryUrl: config.registryDbUrl,
      registryAuthToken: config.registryDbAuthToken,
      cacheSize: config.tenantCacheSize,
      lockTimeoutMs: config.writeLockTimeoutMs,
      requestTimeoutMs: config.libsqlRequestTimeoutMs,
    });
  await tenancy.init();
  const contentStore =
    overrides.contentStore ??
    createContentStore(config.contentStore, {
      endpoint: config.s3.endpoint,
      region: config.s3.region,
      accessKeyId: config.s3.accessKeyId,
      secretAccessKey: config.s3.secretAccessKey,
    });
  const log = overrides.log ?? createLogger(config.logLevel);
  return {
    config,
    clock: overrides.clock ?? systemClock,
    newId: overrides.newId ?? (() => Bun.randomUUIDv7()),
    tenancy,
    tokens: overrides.tokens ?? new TokenVerifier(config.jwt),
    cursorKey: overrides.cursorKey ?? derivePurposeKey(config.dataKek, "cursor"),
    contentStore,
    log,
    fetch: overrides.fetch ?? fetch,
    resolveHost: overrides.resolveHost ?? systemResolveHost,
    rateLimiter: overrides.rateLimiter ?? new RateLimiter(config.rateLimitPerMinute),
    readiness: overrides.readiness ?? serviceReadiness(config, tenancy, contentStore, { log }),
    mailer: overrides.mailer ?? createMailer(config.smtpUrl),
    events: overrides.events ?? new EventHub(config.eventStream, tenancy, overrides.clock ?? systemClock, log),
  };
}
