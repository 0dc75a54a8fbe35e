// Hub tasks and their history.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../../platform/db/history.ts";
import { locations } from "../../locations/locations.tables.ts";

export const HUB_TASK_TYPES = ["receiving", "putaway", "picking", "packing", "replenishment", "quality", "dock", "continuity"] as const;
export const HUB_TASK_STATES = ["open", "assigned", "in_progress", "completed", "cancelled"] as const;
/** The steps a task's history records (hub_task_events.kind). */
export const HUB_TASK_EVENT_KINDS = ["created", "assigned", "started", "completed", "cancelled"] as const;

/** A task line: one serialised item, or a quantity (of a model, if named). */
export type HubTaskLine = { itemId: string } | { modelId: string | null; quantity: number };

/**
 * One unit of warehouse work. `open` has no assignee; assigning makes it
 * `assigned`; the open states are open, assigned and in_progress.
 */
export const hubTasks = sqliteTable(
  "hub_tasks",
  {
    id: text("id").primaryKey(),
    taskType: text("task_type", { enum: HUB_TASK_TYPES }).notNull(),
    title: text("title").notNull(),
    status: text("status", { enum: HUB_TASK_STATES }).notNull(),
    urgent: integer("urgent", { mode: "boolean" }).notNull(),
    dueAt: text("due_at"),
    /** Where the work happens (a dock, an aisle). */
    locationId: text("location_id").references(() => locations.id),
    /** Where putaway and picking put the items of their item lines on completion. */
    targetLocationId: text("target_location_id").references(() => locations.id),
    lines: text("lines", { mode: "json" }).$type<HubTaskLine[]>().notNull(),
    assigneeUserId: text("assignee_user_id"),
    assignedAt: text("assigned_at"),
    startedAt: text("started_at"),
    completedAt: text("completed_at"),
    cancelledAt: text("cancelled_at"),
    /** The replenishment rule that raised the task, if any (no foreign key needed: rules are never deleted). */
    replenishmentRuleId: text("replenishment_rule_id"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("hub_tasks_page_idx").on(t.updatedAt, t.id),
    // Every counted GET /hub/tasks filter has an index led by it.
    index("hub_tasks_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("hub_tasks_type_page_idx").on(t.taskType, t.updatedAt, t.id),
    // q: a case-insensitive prefix range of the title.
    index("hub_tasks_title_ci_idx").on(sql`lower(${t.title})`),
    // GET /hub/summary: every count from one covering scan of the open states' entries.
    index("hub_tasks_counts_idx").on(t.status, t.taskType, t.urgent),
    // GET /hub/overview: urgent unassigned tasks, soonest due first.
    index("hub_tasks_urgent_due_idx").on(t.status, t.urgent, t.dueAt),
    // At most one open replenishment task per rule, whatever runs the evaluation.
    uniqueIndex("hub_tasks_open_rule_uq")
      .on(t.replenishmentRuleId)
      .where(sql`${t.replenishmentRuleId} IS NOT NULL AND ${t.status} IN ('open', 'assigned', 'in_progress')`),
  ],
);

/** Every step of a task (created, assigned, started, completed, cancelled): who, when, why. */
export const hubTaskEvents = eventLogTable(
  "hub_task_events",
  { taskId: text("task_id").notNull().references(() => hubTasks.id) },
  { index: "hub_task_events_task_idx", kinds: HUB_TASK_EVENT_KINDS },
);
