// Journal batches of closed periods.
import { sqliteTable, text, integer, uniqueIndex } from "drizzle-orm/sqlite-core";
import { financeBooks, financePeriods } from "../books/books.tables.ts";

/** One journal line: an account's net side and amount over a batch's entries. */
export interface JournalLine {
  lineNumber: number;
  account: string;
  accountName: string;
  side: "debit" | "credit";
  amount: string;
}
/** Account pair of one entry kind: the asset-side account and its counter-account. */
export interface AccountPair {
  account: string;
  accountName: string;
  counterAccount: string;
  counterAccountName: string;
}

/**
 * A closed period's value entries journalised once: balanced double-entry lines, one
 * per account (net), under the account mapping in force when it was prepared.
 */
export const financeJournalBatches = sqliteTable(
  "finance_journal_batches",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    periodId: text("period_id")
      .notNull()
      .references(() => financePeriods.id),
    currency: text("currency").notNull(),
    entryCount: integer("entry_count").notNull(),
    mapping: text("mapping", { mode: "json" }).$type<Record<string, AccountPair>>().notNull(),
    lines: text("lines", { mode: "json" }).$type<JournalLine[]>().notNull(),
    totalDebit: text("total_debit").notNull(),
    totalCredit: text("total_credit").notNull(),
    state: text("state", { enum: ["prepared", "exported"] }).notNull(),
    exportCount: integer("export_count").notNull(),
    exportedAt: text("exported_at"),
    exportedBy: text("exported_by"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_journal_batches_period_uq").on(t.bookId, t.periodId)],
);
