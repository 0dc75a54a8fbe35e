// Disposals completed in the books and NRV reviews.
import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../../kernel/kernel.tables.ts";
import { financeBooks, financePeriods } from "../books/books.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";

/** The financial completion of an asset's disposal in a book: derecognition and its gain or loss. */
export const financeDisposals = sqliteTable(
  "finance_disposals",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    periodId: text("period_id")
      .notNull()
      .references(() => financePeriods.id),
    valueDate: text("value_date").notNull(),
    currency: text("currency").notNull(),
    proceeds: text("proceeds").notNull(),
    carryingAmount: text("carrying_amount").notNull(),
    /** Signed decimal: proceeds − carrying amount (positive a gain, negative a loss). */
    gainOrLoss: text("gain_or_loss").notNull(),
    outcome: text("outcome", { enum: ["gain", "loss", "nil"] }).notNull(),
    /** The disposal value entry derecognising the carrying amount (null when it was zero). */
    entryId: text("entry_id").references(() => financeValueEntries.id),
    reason: text("reason").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_disposals_book_item_uq").on(t.bookId, t.itemId), index("finance_disposals_item_idx").on(t.itemId)],
);

/** A net-realisable-value review of an asset: carrying amount against NRV, and the impairment proposed when lower. Append-only. */
export const financeNrvReviews = sqliteTable(
  "finance_nrv_reviews",
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
    valueDate: text("value_date").notNull(),
    currency: text("currency").notNull(),
    carryingAmount: text("carrying_amount").notNull(),
    netRealisableValue: text("net_realisable_value").notNull(),
    /** carrying amount − NRV when positive, else 0. */
    impairment: text("impairment").notNull(),
    outcome: text("outcome", { enum: ["impairment_proposed", "no_impairment"] }).notNull(),
    /** The finance_value_entry workflow case proposing the impairment (null when none). */
    workflowCaseId: text("workflow_case_id"),
    reason: text("reason").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_nrv_reviews_item_idx").on(t.itemId, t.valueDate)],
);
