import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";

/**
 * The planning audit trail (ISO 15489-1 record identity): one row per write of a
 * planning or canonical record, with the actor and the server time. Append-only.
 */
export const planningAudit = sqliteTable(
  "planning_audit",
  {
    id: text("id").primaryKey(),
    /** The project the write happened in; null for canonical writes outside a project. */
    projectId: text("project_id"),
    recordType: text("record_type").notNull(),
    recordId: text("record_id").notNull(),
    action: text("action").notNull(),
    actorId: text("actor_id").notNull(),
    recordedAt: text("recorded_at").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("planning_audit_project_idx").on(t.projectId, t.recordedAt, t.id), index("planning_audit_record_idx").on(t.recordId, t.recordedAt, t.id)],
);
