// Continuity runs.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const CONTINUITY_RUN_STATES = ["in_progress", "completed"] as const;
export const CONTINUITY_OUTCOMES = ["passed", "failed", "partial"] as const;
export const CHECKLIST_RESULTS = ["passed", "failed", "skipped"] as const;

export interface ChecklistEntry {
  position: number;
  title: string;
  result: (typeof CHECKLIST_RESULTS)[number] | null;
  note: string | null;
}

/** A business-continuity drill: a scenario and its checklist, completed with results and an outcome. */
export const continuityRuns = sqliteTable(
  "hub_continuity_runs",
  {
    id: text("id").primaryKey(),
    scenario: text("scenario").notNull(),
    checklist: text("checklist", { mode: "json" }).$type<ChecklistEntry[]>().notNull(),
    status: text("status", { enum: CONTINUITY_RUN_STATES }).notNull(),
    outcome: text("outcome", { enum: CONTINUITY_OUTCOMES }),
    notes: text("notes"),
    startedAt: text("started_at").notNull(),
    completedAt: text("completed_at"),
    completedBy: text("completed_by"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("hub_continuity_page_idx").on(t.startedAt, t.id),
    index("hub_continuity_status_page_idx").on(t.status, t.startedAt, t.id),
    index("hub_continuity_scenario_ci_idx").on(sql`lower(${t.scenario})`),
  ],
);
