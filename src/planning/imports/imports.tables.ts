import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";

/**
 * Applied planning imports, keyed by the body's `idempotencyKey`: a retry with the
 * same key and digest gets `result` again; another digest under the key is refused.
 */
export const planningImports = sqliteTable(
  "planning_imports",
  {
    idempotencyKey: text("idempotency_key").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    previewDigest: text("preview_digest").notNull(),
    recordCount: integer("record_count").notNull(),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("planning_imports_project_idx").on(t.projectId, t.createdAt)],
);
