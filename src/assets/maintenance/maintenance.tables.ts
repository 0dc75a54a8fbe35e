import { sqliteTable, text, integer, index, primaryKey, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { items } from "../kernel/kernel.tables.ts";
import { WORK_ORDER_EVENT_KINDS } from "./maintenance.states.ts";

export interface LabourEntry {
  userId: string;
  minutes: number;
}
export interface PartUsed {
  itemId: string;
  quantity: number;
}

/**
 * Repairs, inspections, calibrations and preventive maintenance of one item:
 * open → in_progress ↔ paused → completed; open/paused → cancelled. While
 * `holds_item` the item carries a `maintenance` block (availability in_maintenance).
 */
export const workOrders = sqliteTable(
  "work_orders",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: ["repair", "inspection", "calibration", "preventive"] }).notNull(),
    title: text("title").notNull(),
    description: text("description"),
    status: text("status", { enum: ["open", "in_progress", "paused", "completed", "cancelled"] }).notNull(),
    assigneeUserId: text("assignee_user_id"),
    dueAt: text("due_at"),
    /** Recurring maintenance: completion opens the next order this many days on (or on the given nextDueOn). */
    recurrenceEveryDays: integer("recurrence_every_days"),
    /** Whether the order holds the item in maintenance now (its block is set). */
    holdsItem: integer("holds_item", { mode: "boolean" }).notNull(),
    previousWorkOrderId: text("previous_work_order_id").references((): AnySQLiteColumn => workOrders.id),
    nextWorkOrderId: text("next_work_order_id").references((): AnySQLiteColumn => workOrders.id),
    startedAt: text("started_at"),
    completedAt: text("completed_at"),
    cancelledAt: text("cancelled_at"),
    outcome: text("outcome"),
    labour: text("labour", { mode: "json" }).$type<LabourEntry[]>(),
    parts: text("parts", { mode: "json" }).$type<PartUsed[]>(),
    costAmount: text("cost_amount"),
    costCurrency: text("cost_currency"),
    nextDueOn: text("next_due_on"),
    completionNote: text("completion_note"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("work_orders_page_idx").on(t.updatedAt, t.id),
    // Every counted GET /work-orders filter has an index led by it (q: work_order_words);
    // the status one also answers the summary's count of open orders.
    index("work_orders_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("work_orders_item_page_idx").on(t.itemId, t.updatedAt, t.id),
  ],
);

/** The words of a work order's title (lower case, no diacritics): what `q` matches by prefix. */
export const workOrderWords = sqliteTable(
  "work_order_words",
  {
    word: text("word").notNull(),
    workOrderId: text("work_order_id")
      .notNull()
      .references(() => workOrders.id),
  },
  (t) => [primaryKey({ columns: [t.word, t.workOrderId] })],
);

/** A work order's history: who did what when, and why. */
export const workOrderEvents = eventLogTable(
  "work_order_events",
  { workOrderId: text("work_order_id").notNull().references(() => workOrders.id) },
  { index: "work_order_events_order_idx", kinds: WORK_ORDER_EVENT_KINDS },
);
