import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A user's membership in this partner; the registry keeps the user → partners index. */
export const memberships = sqliteTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ["viewer", "operator", "manager", "admin", "owner"] }).notNull(),
    displayName: text("display_name").notNull(),
    email: text("email"),
    status: text("status", { enum: ["active", "inactive"] }).notNull().default("active"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("memberships_user_uq").on(t.userId), index("memberships_status_idx").on(t.status, t.updatedAt, t.id)],
);

/** Per-partner override of a capability's role defaults (absent row: built-in defaults). */
export const capabilitySettings = sqliteTable("capability_settings", {
  key: text("key").primaryKey(),
  roleDefaults: text("role_defaults", { mode: "json" }).$type<string[]>().notNull(),
  version: integer("version").notNull().default(1),
  updatedAt: text("updated_at").notNull(),
  updatedBy: text("updated_by").notNull(),
});

export const capabilityGrants = sqliteTable(
  "capability_grants",
  {
    id: text("id").primaryKey(),
    capability: text("capability").notNull(),
    userId: text("user_id").notNull(),
    expiresAt: text("expires_at"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  // No user_id index: grants are read whole and deleted by capability (capability_grants_uq).
  (t) => [uniqueIndex("capability_grants_uq").on(t.capability, t.userId)],
);
