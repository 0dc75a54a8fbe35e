// Supplier receipts.
import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../../kernel/kernel.tables.ts";
import { financeBooks } from "../books/books.tables.ts";

/** A supplier's receipt (invoice or delivery bill) for an asset, to reconcile against its acquisition entries. Append-only. */
export const financeReceipts = sqliteTable(
  "finance_receipts",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    supplier: text("supplier").notNull(),
    reference: text("reference").notNull(),
    receivedOn: text("received_on").notNull(),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_receipts_reference_uq").on(t.bookId, t.supplier, t.reference), index("finance_receipts_book_date_idx").on(t.bookId, t.receivedOn)],
);
