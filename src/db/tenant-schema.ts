// Barrel of every tenant table; drizzle-kit reads it to generate migrations/tenant.
export * from "../platform/auth/auth.tables.ts";
export * from "../platform/idempotency/idempotency.tables.ts";
export * from "../platform/jobs/jobs.tables.ts";
export * from "../platform/outbox/outbox.tables.ts";
export * from "../assets/views/views.tables.ts";
