import { sqliteTable, text, integer, uniqueIndex, index, primaryKey } from "drizzle-orm/sqlite-core";

export const savedViews = sqliteTable(
  "saved_views",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    surface: text("surface").notNull(),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    query: text("query", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("saved_views_name_uq").on(t.userId, t.surface, t.nameKey),
    index("saved_views_user_page_idx").on(t.userId, t.updatedAt, t.id),
    index("saved_views_user_surface_page_idx").on(t.userId, t.surface, t.updatedAt, t.id),
  ],
);

export const drafts = sqliteTable(
  "drafts",
  {
    userId: text("user_id").notNull(),
    route: text("route").notNull(),
    workflowKey: text("workflow_key").notNull(),
    payload: text("payload").notNull(),
    version: integer("version").notNull().default(1),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.route, t.workflowKey] }), index("drafts_expiry_idx").on(t.expiresAt)],
);
