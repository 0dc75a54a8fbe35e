import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";

/** Stored 2xx outcome of a keyed mutation, written in the mutation's own transaction. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id").notNull(),
    method: text("method").notNull(),
    route: text("route").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    status: integer("status").notNull(),
    body: text("body").notNull(),
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.method, t.route, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
