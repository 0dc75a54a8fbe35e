// Barrel of every tenant table; drizzle-kit reads it to generate migrations/tenant.
export * from "../platform/auth/auth.tables.ts";
export * from "../platform/idempotency/idempotency.tables.ts";
export * from "../platform/jobs/jobs.tables.ts";
export * from "../platform/outbox/outbox.tables.ts";
export * from "../assets/views/views.tables.ts";
export * from "../assets/master-data/master-data.tables.ts";
export * from "../assets/items/items.tables.ts";
export * from "../assets/identity/identity.tables.ts";
export * from "../assets/custody/custody.tables.ts";
export * from "../assets/movements/movements.tables.ts";
