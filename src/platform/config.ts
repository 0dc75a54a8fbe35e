// The service's configuration as the platform sees it; src/env.ts is the only code
// that builds it (from the environment).
export interface Config {
  production: boolean;
  port: number;
  /** Listen with SO_REUSEPORT (REUSE_PORT): several instances on one host share the port, the kernel spreads connections. */
  reusePort: boolean;
  tenantsDir: string;
  tenantDbUrlTemplate: string;
  tenantDbAuthToken?: string;
  /** The registry database: a local file, or a libSQL server instances share (REGISTRY_DB_URL). */
  registryDbUrl: string;
  /** Auth token of a remote registry (REGISTRY_DB_AUTH_TOKEN, default TENANT_DB_AUTH_TOKEN). */
  registryDbAuthToken?: string;
  tenantCacheSize: number;
  writeLockTimeoutMs: number;
  /** How long one call into a libSQL server (a partner's or the registry) may take before it counts as unavailable (ms). */
  libsqlRequestTimeoutMs: number;
  /** Dashboard tokens; `maxLifetimeSeconds` bounds exp − iat (longer-lived tokens are 401). */
  jwt: { secret?: string; jwksUrl?: string; issuer?: string; audience?: string; maxLifetimeSeconds: number };
  dataKek: Uint8Array;
  webhookEncryptionKey?: string;
  contentStore: string;
  s3: { endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string };
  /** clamd to stream evidence through (INSTREAM); none configured: the scan is the magic-byte check alone. */
  clamd?: { host: string; port: number };
  /** Largest evidence upload in bytes (413 beyond, counted while streaming). */
  evidenceMaxBytes: number;
  schedulerSecret?: string;
  jobs: boolean;
  smtpUrl?: string;
  messengerA: { apiBase: string; botToken?: string };
  messengerB: { apiBase: string; botToken?: string };
  webhookAllowPrivate: boolean;
  /** How far ahead alerts warn of ending agreements, warranties and leases (days). */
  alertHorizonDays: number;
  rateLimitPerMinute: number;
  corsOrigins: string[];
  /** Origin (and path prefix) of the service as clients reach it, for absolute links; unset in production without PUBLIC_BASE_URL. */
  publicBaseUrl?: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** On a graceful stop, how long /readyz answers 503 while the listener still accepts requests, before it closes (ms). */
  shutdownDrainMs: number;
  /**
   * Live event streams (GET …/events/stream, src/platform/events): the heartbeat comment's
   * interval, the outbox poll that catches other processes' commits, concurrent streams per
   * user and partner, events queued for a slow client before its stream ends with `overflow`,
   * and the reconnect delay suggested to clients (`retry:`).
   */
  eventStream: { heartbeatMs: number; pollMs: number; maxPerUser: number; queueMax: number; retryMs: number };
  /** The operator console's OpenID Connect sign-in (CONSOLE_OIDC_*); none: the console offers token sign-in only. */
  consoleOidc?: { issuer: string; clientId: string; scope: string };
}
