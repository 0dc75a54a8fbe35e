// The service's configuration as the platform sees it; src/env.ts is the only code
// that builds it (from the environment).
export interface Config {
  production: boolean;
  port: number;
  tenantsDir: string;
  tenantDbUrlTemplate: string;
  tenantDbAuthToken?: string;
  tenantCacheSize: number;
  writeLockTimeoutMs: number;
  jwt: { secret?: string; jwksUrl?: string; issuer?: string; audience?: string };
  dataKek: Uint8Array;
  webhookEncryptionKey?: string;
  contentStore: string;
  s3: { endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string };
  schedulerSecret?: string;
  jobs: boolean;
  smtpUrl?: string;
  messengerA: { apiBase: string; botToken?: string };
  messengerB: { apiBase: string; botToken?: string };
  webhookAllowPrivate: boolean;
  rateLimitPerMinute: number;
  corsOrigins: string[];
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
}
