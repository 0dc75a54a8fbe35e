import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Materialised alerts, one per due condition: `fingerprint` (kind, record, due
 * condition) is unique, so a rerun of the job never creates a second one.
 * open → acknowledged (a user saw it); open/acknowledged → resolved (the job found
 * the condition cleared); resolved → open again when the same condition returns.
 */
export const alerts = sqliteTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    fingerprint: text("fingerprint").notNull(),
    kind: text("kind").notNull(),
    status: text("status", { enum: ["open", "acknowledged", "resolved"] }).notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    /** The due condition's time or date (due, ends, expected arrival); null when the condition has none. */
    dueAt: text("due_at"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    acknowledgedAt: text("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
    resolvedAt: text("resolved_at"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("alerts_fingerprint_uq").on(t.fingerprint),
    index("alerts_page_idx").on(t.createdAt, t.id),
    index("alerts_kind_page_idx").on(t.kind, t.createdAt, t.id),
    index("alerts_status_page_idx").on(t.status, t.createdAt, t.id),
  ],
);
