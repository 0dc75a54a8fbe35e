import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";

/**
 * Applied planning imports, keyed by the body's `idempotencyKey`: a retry with the
 * same key, digest and records gets `result` again; anything else under the key is refused.
 */
export const planningImports = sqliteTable(
  "planning_imports",
  {
    idempotencyKey: text("idempotency_key").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    previewDigest: text("preview_digest").notNull(),
    /** SHA-256 of the normalised records alone (the preview digest also binds the data they were checked against); null on imports applied before it was kept. */
    recordsDigest: text("records_digest"),
    recordCount: integer("record_count").notNull(),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("planning_imports_project_idx").on(t.projectId, t.createdAt)],
);
