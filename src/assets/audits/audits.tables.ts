import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { items } from "../kernel/kernel.tables.ts";
import { locations } from "../locations/locations.tables.ts";
import { AUDIT_EVENT_KINDS } from "./audits.states.ts";

/**
 * A physical stock-take of a scope (locations with their sub-locations and/or
 * categories): planned → counting (the expected list is frozen) → in_review
 * (results frozen) → posted (accepted corrections applied).
 */
export const audits = sqliteTable(
  "audits",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    status: text("status", { enum: ["planned", "counting", "in_review", "posted"] }).notNull(),
    /** The scope as created (ids in the order given); immutable. audit_locations indexes the locations. */
    scopeLocationIds: text("scope_location_ids", { mode: "json" }).$type<string[]>().notNull(),
    scopeCategoryIds: text("scope_category_ids", { mode: "json" }).$type<string[]>().notNull(),
    dueAt: text("due_at"),
    startedAt: text("started_at"),
    countingClosedAt: text("counting_closed_at"),
    postedAt: text("posted_at"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("audits_page_idx").on(t.updatedAt, t.id),
    // Every counted GET /audits filter has an index led by it (locationId: audit_locations, q: audit_words).
    index("audits_status_page_idx").on(t.status, t.updatedAt, t.id),
  ],
);

/** The scope's locations, one row each: what the `locationId` filter of GET /audits reads. */
export const auditLocations = sqliteTable(
  "audit_locations",
  {
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
  },
  (t) => [primaryKey({ columns: [t.auditId, t.locationId] }), index("audit_locations_location_idx").on(t.locationId, t.auditId)],
);

/** The words of an audit's name (lower case, no diacritics): what `q` matches by prefix. */
export const auditWords = sqliteTable(
  "audit_words",
  {
    word: text("word").notNull(),
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id),
  },
  (t) => [primaryKey({ columns: [t.word, t.auditId] })],
);

/** The expected list, frozen when counting starts: each item in scope then, where it was and in what condition. */
export const auditExpected = sqliteTable(
  "audit_expected",
  {
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    locationId: text("location_id").notNull(),
    condition: text("condition").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.auditId, t.itemId] })],
);

/** One counter's sighting of one item: a later count by the same counter replaces it. */
export const auditCounts = sqliteTable(
  "audit_counts",
  {
    id: text("id").primaryKey(),
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    counterId: text("counter_id").notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    condition: text("condition"),
    quantity: integer("quantity"),
    /** The scanned text the item was resolved from, when it was scanned. */
    raw: text("raw"),
    countedAt: text("counted_at").notNull(),
  },
  (t) => [uniqueIndex("audit_counts_counter_uq").on(t.auditId, t.itemId, t.counterId)],
);

export interface AuditCountFact {
  counterId: string;
  locationId: string;
  condition: string | null;
  quantity: number | null;
  countedAt: string;
}

/**
 * One result per item of the audit (expected or counted), kept up to date while
 * counting and frozen from in_review on. `review_state` is not_needed for found
 * items, pending for a discrepancy until reviewed, then accepted or rejected.
 */
export const auditResults = sqliteTable(
  "audit_results",
  {
    id: text("id").primaryKey(),
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: ["found", "missing", "unexpected", "wrong_location", "condition_change"] }).notNull(),
    expected: integer("expected", { mode: "boolean" }).notNull(),
    /** Where the register had the item: at the start for expected items, at the first count for unexpected ones. */
    recordedLocationId: text("recorded_location_id").notNull(),
    recordedCondition: text("recorded_condition").notNull(),
    recordedQuantity: integer("recorded_quantity").notNull(),
    countedLocationId: text("counted_location_id"),
    countedCondition: text("counted_condition"),
    countedQuantity: integer("counted_quantity"),
    /** Every counter's count of the item, latest first (the latest decides location and condition). */
    counts: text("counts", { mode: "json" }).$type<AuditCountFact[]>().notNull(),
    reviewState: text("review_state", { enum: ["not_needed", "pending", "accepted", "rejected"] }).notNull(),
    reviewReason: text("review_reason"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: text("reviewed_at"),
    /** When posting applied an accepted correction of this result. */
    appliedAt: text("applied_at"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("audit_results_item_uq").on(t.auditId, t.itemId),
    index("audit_results_page_idx").on(t.auditId, t.updatedAt, t.id),
    index("audit_results_kind_idx").on(t.auditId, t.kind, t.updatedAt, t.id),
    index("audit_results_review_idx").on(t.auditId, t.reviewState, t.updatedAt, t.id),
  ],
);

/** The audit's own history: created, started, counting closed, each review, posted. */
export const auditEvents = eventLogTable(
  "audit_events",
  { auditId: text("audit_id").notNull().references(() => audits.id) },
  { index: "audit_events_audit_idx", kinds: AUDIT_EVENT_KINDS },
);
