// The logistics hub's tables: tasks and their history, and the companion records
// (dock appointments, quality holds, replenishment rules, continuity runs) with
// one shared history table. Items are never written here: holds block them
// through the kernel (item_blocks), tasks name them in their lines.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { locations } from "../locations/locations.tables.ts";
import { catalogModels } from "../catalogue/catalogue.tables.ts";

export const HUB_TASK_TYPES = ["receiving", "putaway", "picking", "packing", "replenishment", "quality", "dock", "continuity"] as const;
export const HUB_TASK_STATES = ["open", "assigned", "in_progress", "completed", "cancelled"] as const;
/** The steps a task's history records (hub_task_events.kind). */
export const HUB_TASK_EVENT_KINDS = ["created", "assigned", "started", "completed", "cancelled"] as const;
export const DOCK_APPOINTMENT_KINDS = ["inbound", "outbound"] as const;
export const DOCK_APPOINTMENT_STATES = ["scheduled", "arrived", "loading", "unloading", "completed", "cancelled", "no_show"] as const;
export const QUALITY_HOLD_KINDS = ["inspection", "damage", "recall", "documentation", "other"] as const;
export const QUALITY_HOLD_STATES = ["active", "resolved"] as const;
export const QUALITY_HOLD_RESOLUTIONS = ["release", "scrap", "return"] as const;
export const CONTINUITY_RUN_STATES = ["in_progress", "completed"] as const;
export const CONTINUITY_OUTCOMES = ["passed", "failed", "partial"] as const;
export const CHECKLIST_RESULTS = ["passed", "failed", "skipped"] as const;

/** A task line: one serialised item, or a quantity (of a model, if named). */
export type HubTaskLine = { itemId: string } | { modelId: string | null; quantity: number };

export interface ChecklistEntry {
  position: number;
  title: string;
  result: (typeof CHECKLIST_RESULTS)[number] | null;
  note: string | null;
}

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

/** A carrier's slot at a dock. shipmentId is a reference only: the hub reads no transit table. */
export const dockAppointments = sqliteTable(
  "hub_dock_appointments",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    carrier: text("carrier").notNull(),
    kind: text("kind", { enum: DOCK_APPOINTMENT_KINDS }).notNull(),
    scheduledAt: text("scheduled_at").notNull(),
    shipmentId: text("shipment_id"),
    reference: text("reference"),
    note: text("note"),
    status: text("status", { enum: DOCK_APPOINTMENT_STATES }).notNull(),
    arrivedAt: text("arrived_at"),
    startedAt: text("started_at"),
    closedAt: text("closed_at"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("hub_dock_page_idx").on(t.scheduledAt, t.id),
    index("hub_dock_status_page_idx").on(t.status, t.scheduledAt, t.id),
    index("hub_dock_carrier_ci_idx").on(sql`lower(${t.carrier})`),
    index("hub_dock_reference_ci_idx").on(sql`lower(${t.reference})`),
  ],
);

/** Items held for a quality reason; each item carries a kernel `hold` block (source = the hold) while it is active. */
export const qualityHolds = sqliteTable(
  "hub_quality_holds",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: QUALITY_HOLD_KINDS }).notNull(),
    reason: text("reason").notNull(),
    reference: text("reference"),
    itemIds: text("item_ids", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: QUALITY_HOLD_STATES }).notNull(),
    placedAt: text("placed_at").notNull(),
    resolution: text("resolution", { enum: QUALITY_HOLD_RESOLUTIONS }),
    resolutionNote: text("resolution_note"),
    resolvedAt: text("resolved_at"),
    resolvedBy: text("resolved_by"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("hub_holds_page_idx").on(t.placedAt, t.id),
    index("hub_holds_status_page_idx").on(t.status, t.placedAt, t.id),
    index("hub_holds_reason_ci_idx").on(sql`lower(${t.reason})`),
    index("hub_holds_reference_ci_idx").on(sql`lower(${t.reference})`),
  ],
);

/** Keep between min and max of a model at a location (its subtree counts). */
export const replenishmentRules = sqliteTable(
  "hub_replenishment_rules",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    modelId: text("model_id")
      .notNull()
      .references(() => catalogModels.id),
    min: integer("min").notNull(),
    max: integer("max").notNull(),
    label: text("label"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("hub_rules_location_model_uq").on(t.locationId, t.modelId),
    index("hub_rules_page_idx").on(t.updatedAt, t.id),
    index("hub_rules_label_ci_idx").on(sql`lower(${t.label})`),
  ],
);

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

/** The history of the companion records (appointments, holds, rules, continuity runs): who, when, why. */
export const hubRecordEvents = eventLogTable(
  "hub_record_events",
  { recordId: text("record_id").notNull() },
  {
    index: "hub_record_events_record_idx",
    columns: { recordType: text("record_type", { enum: ["appointment", "hold", "rule", "continuity"] }).notNull() },
  },
);
