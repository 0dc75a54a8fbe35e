// Barrel of every tenant table; drizzle-kit reads it to generate migrations/tenant.
export * from "../platform/auth/auth.tables.ts";
export * from "../platform/idempotency/idempotency.tables.ts";
export * from "../platform/jobs/jobs.tables.ts";
export * from "../platform/outbox/outbox.tables.ts";
export * from "../assets/views/views.tables.ts";
export * from "../assets/locations/locations.tables.ts";
export * from "../assets/parties/parties.tables.ts";
export * from "../assets/agreements/agreements.tables.ts";
export * from "../assets/catalogue/catalogue.tables.ts";
export * from "../assets/kernel/kernel.tables.ts";
export * from "../assets/identity/identity.tables.ts";
export * from "../assets/custody/custody.tables.ts";
export * from "../assets/transit/transit.tables.ts";
export * from "../assets/audits/audits.tables.ts";
export * from "../assets/maintenance/maintenance.tables.ts";
export * from "../assets/hub/hub.tables.ts";
