export * from "../platform/tenancy/registry.tables.ts";
