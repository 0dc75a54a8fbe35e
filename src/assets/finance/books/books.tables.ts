// Books and their fiscal periods.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { policies } from "../../policies/policies.tables.ts";

/** A set of books kept in one functional currency under one depreciation policy. */
export const financeBooks = sqliteTable(
  "finance_books",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    functionalCurrency: text("functional_currency").notNull(),
    /** The depreciation policy the book follows; proposals must name it and it must be the active one. */
    policyId: text("policy_id")
      .notNull()
      .references(() => policies.id),
    /** 1–12: the month the book's fiscal year starts (the rollforward's opening date). */
    fiscalYearStartMonth: integer("fiscal_year_start_month").notNull(),
    state: text("state", { enum: ["active", "closed"] }).notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_books_page_idx").on(t.updatedAt, t.id), index("finance_books_state_idx").on(t.state, t.updatedAt, t.id)],
);

/** A fiscal period of a book, [startsOn, endsOn] inclusive; periods of one book never overlap. */
export const financePeriods = sqliteTable(
  "finance_periods",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    name: text("name").notNull(),
    startsOn: text("starts_on").notNull(),
    endsOn: text("ends_on").notNull(),
    state: text("state", { enum: ["open", "closed"] }).notNull(),
    closedAt: text("closed_at"),
    closedBy: text("closed_by"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("finance_periods_page_idx").on(t.updatedAt, t.id),
    index("finance_periods_book_idx").on(t.bookId, t.updatedAt, t.id),
    index("finance_periods_state_idx").on(t.state, t.updatedAt, t.id),
    index("finance_periods_book_dates_idx").on(t.bookId, t.startsOn),
  ],
);
