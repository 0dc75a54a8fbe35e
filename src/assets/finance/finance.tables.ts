import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../kernel/kernel.tables.ts";
import { policies } from "../policies/policies.tables.ts";

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

/** How one asset depreciates in one book. Estimates (life, residual) change only through depreciation_estimates. */
export const depreciationProfiles = sqliteTable(
  "depreciation_profiles",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    method: text("method", { enum: ["straight_line", "declining_balance", "double_declining_balance", "sum_of_years_digits", "units_of_production"] }).notNull(),
    /** Annual rate as a decimal string ("0.40"), declining_balance only. */
    decliningRate: text("declining_rate"),
    convention: text("convention", { enum: ["full_month", "mid_month"] }).notNull(),
    currency: text("currency").notNull(),
    cost: text("cost").notNull(),
    /** The current estimate's residual value and total useful life (months from startDate). */
    residualValue: text("residual_value").notNull(),
    usefulLifeMonths: integer("useful_life_months").notNull(),
    startDate: text("start_date").notNull(),
    /** The last schedule month (YYYY-MM) a run has posted, null before the first. */
    postedThrough: text("posted_through"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("depreciation_profiles_book_item_uq").on(t.bookId, t.itemId), index("depreciation_profiles_book_idx").on(t.bookId, t.id)],
);

/**
 * Append-only estimate history of a profile: the first row is the original
 * estimate; each change-estimate adds one that governs from effectiveMonth on,
 * re-spreading `openingCarrying − residualValue` over the remaining months.
 */
export const depreciationEstimates = sqliteTable(
  "depreciation_estimates",
  {
    id: text("id").primaryKey(),
    profileId: text("profile_id")
      .notNull()
      .references(() => depreciationProfiles.id),
    seq: integer("seq").notNull(),
    effectiveMonth: text("effective_month").notNull(),
    usefulLifeMonths: integer("useful_life_months").notNull(),
    residualValue: text("residual_value").notNull(),
    openingCarrying: text("opening_carrying").notNull(),
    /** Units per month of this segment (units_of_production), decimal strings. */
    unitsPlan: text("units_plan", { mode: "json" }).$type<string[] | null>(),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("depreciation_estimates_seq_uq").on(t.profileId, t.seq)],
);

/** One posted depreciation run per book and period (what makes /run idempotent and a close possible). */
export const depreciationRuns = sqliteTable(
  "depreciation_runs",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    periodId: text("period_id")
      .notNull()
      .references(() => financePeriods.id),
    entryIds: text("entry_ids", { mode: "json" }).$type<string[]>().notNull(),
    total: text("total").notNull(),
    currency: text("currency").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("depreciation_runs_book_period_uq").on(t.bookId, t.periodId)],
);
