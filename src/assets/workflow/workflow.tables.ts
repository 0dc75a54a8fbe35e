import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { items } from "../kernel/kernel.tables.ts";
import { agreements } from "../agreements/agreements.tables.ts";

/**
 * A maker/checker request: a typed operation proposed by one member and applied
 * only when another member approves it. `operation` is the validated, normalised
 * document of its type; `decision` and `application_receipt` are set once, when
 * the case leaves `pending`.
 */
export const workflowCases = sqliteTable(
  "workflow_cases",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    state: text("state", { enum: ["pending", "completed", "rejected"] }).notNull(),
    operation: text("operation", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The maker's reason for proposing, if given. */
    reason: text("reason"),
    /** `{ decision, reason, decidedBy, decidedAt }` once decided. */
    decision: text("decision", { mode: "json" }).$type<Record<string, unknown>>(),
    /** What approval applied: `{ type, appliedAt, appliedBy, operation, records: [{ recordType, recordId, version }] }`. */
    applicationReceipt: text("application_receipt", { mode: "json" }).$type<Record<string, unknown>>(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("workflow_cases_page_idx").on(t.updatedAt, t.id),
    // Visibility (own cases, or the types the caller reviews) and the counted filters each have an index led by them.
    index("workflow_cases_creator_page_idx").on(t.createdBy, t.updatedAt, t.id),
    index("workflow_cases_type_page_idx").on(t.type, t.updatedAt, t.id),
    index("workflow_cases_state_page_idx").on(t.state, t.updatedAt, t.id),
  ],
);

/** The case's durable history: every state change and every refused approval, append-only. */
export const workflowCaseHistory = eventLogTable(
  "workflow_case_history",
  { caseId: text("case_id").notNull().references(() => workflowCases.id) },
  {
    index: "workflow_case_history_case_idx",
    kinds: ["created", "approved", "rejected", "approval_failed"],
    /** The case's version once this entry was written. */
    columns: { version: integer("version").notNull() },
  },
);

/** Warranty claims raised by approved `warranty_claim` cases. */
export const warrantyClaims = sqliteTable(
  "warranty_claims",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    agreementId: text("agreement_id")
      .notNull()
      .references(() => agreements.id),
    caseId: text("case_id")
      .notNull()
      .references(() => workflowCases.id),
    description: text("description").notNull(),
    reference: text("reference"),
    state: text("state", { enum: ["submitted"] }).notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  // item_id: deleting a pending import's items checks this foreign key. No agreement_id index:
  // claims are only inserted and agreements are never deleted.
  (t) => [index("warranty_claims_item_idx").on(t.itemId)],
);

/** Inspection and calibration results recorded by approved `inspection_calibration` cases. */
export const inspectionResults = sqliteTable(
  "inspection_results",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    caseId: text("case_id")
      .notNull()
      .references(() => workflowCases.id),
    kind: text("kind", { enum: ["inspection", "calibration"] }).notNull(),
    result: text("result", { enum: ["pass", "fail"] }).notNull(),
    performedOn: text("performed_on").notNull(),
    certificateReference: text("certificate_reference"),
    nextDueOn: text("next_due_on").notNull(),
    notes: text("notes"),
    /** The repair work order a failure opened. */
    workOrderId: text("work_order_id"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("inspection_results_item_idx").on(t.itemId, t.performedOn)],
);
