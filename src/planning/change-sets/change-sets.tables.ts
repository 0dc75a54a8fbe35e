import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";

export const CHANGE_SET_STATES = ["draft", "submitted", "approved", "rejected", "applied", "conflicted", "cancelled"] as const;

export interface StoredOperation {
  op: "update";
  target: { type: "event" | "tier" | "inclusion" | "add_on" | "shop_item"; id: string };
  expectedUpdatedAt: string;
  changes: Record<string, unknown>;
}
export interface StoredConflict {
  target: StoredOperation["target"];
  expectedUpdatedAt: string;
  actualUpdatedAt: string | null;
}

/** A reviewed proposal of typed updates to the project's canonical records (ISO 21502 change control). */
export const planningChangeSets = sqliteTable(
  "planning_change_sets",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    title: text("title").notNull(),
    state: text("state", { enum: CHANGE_SET_STATES }).notNull(),
    operations: text("operations", { mode: "json" }).$type<StoredOperation[]>().notNull(),
    reviewedBy: text("reviewed_by"),
    reviewedAt: text("reviewed_at"),
    reviewDecision: text("review_decision", { enum: ["approve", "reject"] }),
    reviewReason: text("review_reason"),
    appliedBy: text("applied_by"),
    appliedAt: text("applied_at"),
    conflicts: text("conflicts", { mode: "json" }).$type<StoredConflict[]>(),
    cancelledBy: text("cancelled_by"),
    cancelledAt: text("cancelled_at"),
    cancelReason: text("cancel_reason"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("planning_change_sets_page_idx").on(t.projectId, t.updatedAt, t.id),
    index("planning_change_sets_state_page_idx").on(t.projectId, t.state, t.updatedAt, t.id),
    index("planning_change_sets_review_idx").on(t.state, t.updatedAt, t.id),
  ],
);
