// The only reader of process.env. Parses configuration once, fills embedded
// defaults, and refuses to start in production without real key material.
import { z } from "zod";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import type { Config } from "./platform/config.ts";

export type { Config };

const EnvSchema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  REUSE_PORT: z.enum(["true", "false"]).default("false"),
  TENANTS_DIR: z.string().default("./tenants"),
  TENANT_DB_URL: z.string().optional(),
  TENANT_DB_AUTH_TOKEN: z.string().optional(),
  REGISTRY_DB_URL: z.string().optional(),
  REGISTRY_DB_AUTH_TOKEN: z.string().optional(),
  TENANT_CACHE_SIZE: z.coerce.number().int().min(1).default(200),
  WRITE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  LIBSQL_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(5_000),
  DASHBOARD_JWT_SECRET: z.string().min(1).optional(),
  DASHBOARD_JWKS_URL: z.string().url().optional(),
  DASHBOARD_JWT_ISSUER: z.string().optional(),
  DASHBOARD_JWT_AUDIENCE: z.string().optional(),
  DASHBOARD_JWT_MAX_LIFETIME_SECONDS: z.coerce.number().int().min(1).default(86_400),
  DATA_KEK: z.string().optional(),
  AMS_WEBHOOK_ENCRYPTION_KEY: z.string().optional(),
  CONTENT_STORE: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  CLAMD_HOST: z.string().min(1).optional(),
  CLAMD_PORT: z.coerce.number().int().min(1).max(65535).default(3310),
  EVIDENCE_MAX_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
  SCHEDULER_SECRET: z.string().optional(),
  JOBS: z.enum(["on", "off"]).default("on"),
  SMTP_URL: z.string().optional(),
  MESSENGER_A_API_BASE: z.string().default("https://api.telegram.org"),
  MESSENGER_A_BOT_TOKEN: z.string().optional(),
  MESSENGER_B_API_BASE: z.string().default("https://discord.com/api/v10"),
  MESSENGER_B_BOT_TOKEN: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE: z.enum(["0", "1"]).default("0"),
  ALERT_HORIZON_DAYS: z.coerce.number().int().min(1).max(366).default(30),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  CORS_ORIGINS: z.string().optional(),
  PUBLIC_BASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  EVENT_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(50).max(300_000).default(15_000),
  EVENT_STREAM_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  EVENT_STREAM_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  EVENT_STREAM_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(1_000),
  CONSOLE_OIDC_ISSUER: z.string().optional(),
  CONSOLE_OIDC_CLIENT_ID: z.string().optional(),
  CONSOLE_OIDC_SCOPE: z.string().optional(),
});


export class ConfigError extends Error {}

/** Reads a development secret from disk, creating it once. Never used in production. */
function devSecretFile(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const value = make();
  writeFileSync(path, value + "\n", { mode: 0o600 });
  return value;
}

/**
 * The origin (and optional path prefix) clients reach the service at, for absolute
 * links such as calendar feed URLs; never taken from a request's Host header.
 * Outside production it defaults to `http://localhost:{PORT}` (none for PORT=0: the
 * port is not known yet); in production it has no default (features that need it
 * refuse) and must be https.
 */
function publicBaseUrlOf(value: string | undefined, production: boolean, port: number): string | undefined {
  if (value === undefined || value.trim() === "") return production || port === 0 ? undefined : `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError("PUBLIC_BASE_URL must be an absolute URL such as https://plan.example.com");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError("PUBLIC_BASE_URL must be an http(s) URL");
  if (production && url.protocol !== "https:") throw new ConfigError("PUBLIC_BASE_URL must be https in production (feed URLs carry a credential)");
  if (url.username || url.password || url.search || url.hash) throw new ConfigError("PUBLIC_BASE_URL takes no credentials, query or fragment");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * Where the registry lives: `file:{TENANTS_DIR}/_registry.db` by default, or a libSQL
 * server (`libsql:`, `http(s):`, `ws(s):`) that several instances share.
 */
function registryUrlOf(value: string | undefined, tenantsDir: string): string {
  const url = value?.trim() ? value.trim().replaceAll("{TENANTS_DIR}", tenantsDir) : `file:${tenantsDir}/_registry.db`;
  if (!/^(file|libsql|https?|wss?):/.test(url)) throw new ConfigError("REGISTRY_DB_URL must be a file:, libsql:, http(s): or ws(s): URL");
  if (url.includes("{partnerId}")) throw new ConfigError("REGISTRY_DB_URL names one database: it takes no {partnerId}");
  return url;
}

/**
 * The operator console's OpenID Connect sign-in (Authorization Code with PKCE, a public
 * client): the issuer (its discovery document is `{issuer}/.well-known/openid-configuration`)
 * and the client id, both or neither; https in production. The access tokens it issues are
 * what the API verifies (DASHBOARD_JWKS_URL).
 */
function consoleOidcOf(env: { CONSOLE_OIDC_ISSUER?: string; CONSOLE_OIDC_CLIENT_ID?: string; CONSOLE_OIDC_SCOPE?: string }, production: boolean): Config["consoleOidc"] {
  const issuer = env.CONSOLE_OIDC_ISSUER?.trim();
  const clientId = env.CONSOLE_OIDC_CLIENT_ID?.trim();
  if (!issuer && !clientId) return undefined;
  if (!issuer || !clientId) throw new ConfigError("CONSOLE_OIDC_ISSUER and CONSOLE_OIDC_CLIENT_ID go together: set both or neither");
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError("CONSOLE_OIDC_ISSUER must be an absolute URL such as https://login.example.com/realms/ops");
  }
  if (url.protocol !== "https:" && (production || url.protocol !== "http:")) throw new ConfigError("CONSOLE_OIDC_ISSUER must be https (http only outside production)");
  if (url.username || url.password || url.search || url.hash) throw new ConfigError("CONSOLE_OIDC_ISSUER takes no credentials, query or fragment");
  const scope = env.CONSOLE_OIDC_SCOPE?.trim() || "openid";
  return { issuer: issuer.replace(/\/+$/, ""), clientId, scope };
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`invalid environment: ${first?.path.join(".")}: ${first?.message}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === "production";
  const tenantsDir = resolve(env.TENANTS_DIR);
  // The registry and development key files live here even when partners are remote.
  mkdirSync(tenantsDir, { recursive: true, mode: 0o700 });

  let secret = env.DASHBOARD_JWT_SECRET;
  if (!secret && !env.DASHBOARD_JWKS_URL) {
    if (production) throw new ConfigError("DASHBOARD_JWT_SECRET or DASHBOARD_JWKS_URL is required in production");
    secret = devSecretFile(join(tenantsDir, ".dev-secret"), () => randomBytes(32).toString("base64url"));
  }
  let kekB64 = env.DATA_KEK;
  if (!kekB64) {
    if (production) throw new ConfigError("DATA_KEK is required in production");
    kekB64 = devSecretFile(join(tenantsDir, ".dev-kek"), () => randomBytes(32).toString("base64"));
  }
  const dataKek = new Uint8Array(Buffer.from(kekB64, "base64"));
  if (dataKek.length !== 32) throw new ConfigError("DATA_KEK must be base64 of exactly 32 bytes");
  if (env.AMS_WEBHOOK_ENCRYPTION_KEY !== undefined && Buffer.from(env.AMS_WEBHOOK_ENCRYPTION_KEY, "base64").length !== 32) {
    throw new ConfigError("AMS_WEBHOOK_ENCRYPTION_KEY must be base64 of exactly 32 bytes");
  }

  return {
    production,
    port: env.PORT,
    reusePort: env.REUSE_PORT === "true",
    tenantsDir,
    tenantDbUrlTemplate: env.TENANT_DB_URL ?? `file:${tenantsDir}/{partnerId}.db`,
    tenantDbAuthToken: env.TENANT_DB_AUTH_TOKEN,
    registryDbUrl: registryUrlOf(env.REGISTRY_DB_URL, tenantsDir),
    registryDbAuthToken: env.REGISTRY_DB_AUTH_TOKEN ?? env.TENANT_DB_AUTH_TOKEN,
    tenantCacheSize: env.TENANT_CACHE_SIZE,
    writeLockTimeoutMs: env.WRITE_LOCK_TIMEOUT_MS,
    libsqlRequestTimeoutMs: env.LIBSQL_REQUEST_TIMEOUT_MS,
    jwt: {
      secret,
      jwksUrl: env.DASHBOARD_JWKS_URL,
      issuer: env.DASHBOARD_JWT_ISSUER,
      audience: env.DASHBOARD_JWT_AUDIENCE,
      maxLifetimeSeconds: env.DASHBOARD_JWT_MAX_LIFETIME_SECONDS,
    },
    dataKek,
    webhookEncryptionKey: env.AMS_WEBHOOK_ENCRYPTION_KEY,
    contentStore: env.CONTENT_STORE ?? `file:${tenantsDir}/.blobs`,
    s3: {
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    },
    clamd: env.CLAMD_HOST ? { host: env.CLAMD_HOST, port: env.CLAMD_PORT } : undefined,
    evidenceMaxBytes: env.EVIDENCE_MAX_BYTES,
    schedulerSecret: env.SCHEDULER_SECRET,
    jobs: env.JOBS === "on",
    smtpUrl: env.SMTP_URL,
    messengerA: { apiBase: env.MESSENGER_A_API_BASE, botToken: env.MESSENGER_A_BOT_TOKEN },
    messengerB: { apiBase: env.MESSENGER_B_API_BASE, botToken: env.MESSENGER_B_BOT_TOKEN },
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "1",
    alertHorizonDays: env.ALERT_HORIZON_DAYS,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    corsOrigins: (env.CORS_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    publicBaseUrl: publicBaseUrlOf(env.PUBLIC_BASE_URL, production, env.PORT),
    logLevel: env.LOG_LEVEL,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    eventStream: {
      heartbeatMs: env.EVENT_STREAM_HEARTBEAT_MS,
      pollMs: env.EVENT_STREAM_POLL_MS,
      maxPerUser: env.EVENT_STREAM_MAX_PER_USER,
      queueMax: env.EVENT_STREAM_QUEUE_MAX,
      retryMs: 3_000,
    },
    consoleOidc: consoleOidcOf(env, production),
  };
}
