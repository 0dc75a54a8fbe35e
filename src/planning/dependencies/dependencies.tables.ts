import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";
import { planningRecords } from "../collections/collections.tables.ts";

export const DEPENDENCY_KINDS = ["finish_to_start", "start_to_start", "finish_to_finish", "start_to_finish"] as const;

/** An edge of a project's work graph: `to` depends on `from` (ISO 21502 precedence). The graph stays acyclic. */
export const planningDependencies = sqliteTable(
  "planning_dependencies",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    fromId: text("from_id")
      .notNull()
      .references(() => planningRecords.id),
    toId: text("to_id")
      .notNull()
      .references(() => planningRecords.id),
    kind: text("kind", { enum: DEPENDENCY_KINDS }).notNull(),
    lagMinutes: integer("lag_minutes").notNull().default(0),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("planning_dependencies_edge_uq").on(t.projectId, t.fromId, t.toId), index("planning_dependencies_to_idx").on(t.toId)],
);
