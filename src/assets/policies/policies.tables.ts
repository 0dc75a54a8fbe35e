import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { POLICY_EVENT_KINDS } from "./policies.states.ts";
import { sql } from "drizzle-orm";

/**
 * A governed policy: one typed document with numbered revisions (policy_revisions),
 * an append-only history (policy_events) and, once approved, its activation receipt
 * (policy_receipts). At most one policy per type is `active` (partial unique index).
 */
export const policies = sqliteTable(
  "policies",
  {
    id: text("id").primaryKey(),
    type: text("type", { enum: ["identity", "custody", "depreciation", "permissions"] }).notNull(),
    state: text("state", { enum: ["draft", "in_review", "active", "rejected", "superseded"] }).notNull(),
    /** The document's revision: 1 at creation, + 1 per revision of the draft. */
    revision: integer("revision").notNull(),
    /** The current revision's document (policy_revisions keeps every one). */
    document: text("document", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    submittedAt: text("submitted_at"),
    submittedBy: text("submitted_by"),
    decidedAt: text("decided_at"),
    decidedBy: text("decided_by"),
    decisionReason: text("decision_reason"),
    supersededAt: text("superseded_at"),
    supersededByPolicyId: text("superseded_by_policy_id"),
    /** The record's version: + 1 per change of any kind (revision, submission, decision, supersession). */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("policies_page_idx").on(t.updatedAt, t.id),
    index("policies_type_page_idx").on(t.type, t.updatedAt, t.id),
    index("policies_state_page_idx").on(t.state, t.updatedAt, t.id),
    // The enforcement hooks' one lookup: the active policy of a type.
    uniqueIndex("policies_active_type_uq").on(t.type).where(sql`state = 'active'`),
  ],
);

/** Every revision's document, as drafted; never changed. */
export const policyRevisions = sqliteTable(
  "policy_revisions",
  {
    policyId: text("policy_id")
      .notNull()
      .references(() => policies.id),
    revision: integer("revision").notNull(),
    document: text("document", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("policy_revisions_uq").on(t.policyId, t.revision)],
);

/** The policy's history: who did what, when and why; append-only. */
export const policyEvents = eventLogTable(
  "policy_events",
  { policyId: text("policy_id").notNull().references(() => policies.id) },
  {
    index: "policy_events_policy_idx",
    kinds: POLICY_EVENT_KINDS,
    /** The revision the event concerns. */
    columns: { revision: integer("revision").notNull() },
  },
);

/** The `policy_activation` receipt committed with an approval; one per policy. */
export const policyReceipts = sqliteTable(
  "policy_receipts",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["policy_activation"] }).notNull(),
    policyId: text("policy_id")
      .notNull()
      .references(() => policies.id),
    policyType: text("policy_type").notNull(),
    revision: integer("revision").notNull(),
    /** SHA-256 (hex) of the activated document's canonical JSON. */
    documentSha256: text("document_sha256").notNull(),
    supersededPolicyId: text("superseded_policy_id"),
    approvedBy: text("approved_by").notNull(),
    approvedAt: text("approved_at").notNull(),
    reason: text("reason").notNull(),
    requestId: text("request_id").notNull(),
  },
  (t) => [uniqueIndex("policy_receipts_policy_uq").on(t.policyId)],
);
