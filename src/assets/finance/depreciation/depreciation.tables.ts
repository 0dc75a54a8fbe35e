// Depreciation profiles (whole assets and components), their estimate history and the runs.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../../kernel/kernel.tables.ts";
import { financeBooks, financePeriods } from "../books/books.tables.ts";

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
    /** Set when the profile depreciates a component of its asset (a roof, an engine) rather than the asset as a whole. */
    componentName: text("component_name"),
    /** A replaced component: the profile that capitalised its replacement, and the replacement's value date; it depreciates no more. */
    replacedById: text("replaced_by_id"),
    replacedOn: text("replaced_on"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    // One whole-asset profile per asset and book; one live (not replaced) profile per named component.
    uniqueIndex("depreciation_profiles_book_item_uq").on(t.bookId, t.itemId).where(sql`component_name is null`),
    uniqueIndex("depreciation_profiles_component_uq").on(t.bookId, t.itemId, t.componentName).where(sql`component_name is not null and replaced_on is null`),
    index("depreciation_profiles_book_idx").on(t.bookId, t.id),
  ],
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

/** A profile a run left at `month`: that month's charge would take the asset's carrying amount below its floor. */
export interface RunSkip {
  itemId: string;
  profileId: string;
  month: string;
  code: "carrying_amount_below_floor";
  amount: { amount: string; currency: string };
  carryingAmount: { amount: string; currency: string };
  carryingAmountOn: string;
  floor: { amount: string; currency: string };
}

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
    /** Profiles whose next month's charge would take their asset below its floor: not posted, reported (and answered again on a repeat). */
    skipped: text("skipped", { mode: "json" })
      .$type<RunSkip[]>()
      .notNull()
      .default(sql`'[]'`),
    total: text("total").notNull(),
    currency: text("currency").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("depreciation_runs_book_period_uq").on(t.bookId, t.periodId)],
);
