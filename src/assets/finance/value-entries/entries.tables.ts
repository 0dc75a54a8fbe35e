// The append-only value entries.
import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../../kernel/kernel.tables.ts";
import { financeBooks, financePeriods } from "../books/books.tables.ts";

/**
 * Append-only value entries: never updated or deleted. A correction is a reversal
 * (the opposite side, same amount, `reverses_entry_id` naming the original).
 */
export const financeValueEntries = sqliteTable(
  "finance_value_entries",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    periodId: text("period_id")
      .notNull()
      .references(() => financePeriods.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: ["acquisition", "addition", "impairment", "disposal", "depreciation"] }).notNull(),
    side: text("side", { enum: ["debit", "credit"] }).notNull(),
    /** Decimal string with exactly the currency's minor units; positive. */
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    valueDate: text("value_date").notNull(),
    description: text("description"),
    policyId: text("policy_id").notNull(),
    /** The approved workflow case that wrote it (proposed entries). */
    workflowCaseId: text("workflow_case_id"),
    /** The depreciation profile and schedule month a run posted. */
    profileId: text("profile_id"),
    scheduleMonth: text("schedule_month"),
    reversesEntryId: text("reverses_entry_id"),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("finance_entries_book_date_idx").on(t.bookId, t.valueDate, t.id),
    index("finance_entries_book_item_idx").on(t.bookId, t.itemId, t.valueDate),
    index("finance_entries_period_idx").on(t.periodId),
    uniqueIndex("finance_entries_reverses_uq").on(t.reversesEntryId),
    uniqueIndex("finance_entries_schedule_uq").on(t.profileId, t.scheduleMonth),
  ],
);
