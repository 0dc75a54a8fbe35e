import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../kernel/kernel.tables.ts";
import { policies } from "../policies/policies.tables.ts";
import { catalogCategories } from "../catalogue/catalogue.tables.ts";
import { locations } from "../locations/locations.tables.ts";

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

/** A spending limit for a period of a book, optionally narrowed to a category and/or a location. */
export const financeBudgets = sqliteTable(
  "finance_budgets",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    periodId: text("period_id")
      .notNull()
      .references(() => financePeriods.id),
    name: text("name").notNull(),
    categoryId: text("category_id").references(() => catalogCategories.id),
    locationId: text("location_id").references(() => locations.id),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_budgets_period_idx").on(t.periodId)],
);

/** Costs of owning and running an asset beyond its acquisition (energy, licences, operation…). Append-only. */
export const financeLifecycleCosts = sqliteTable(
  "finance_lifecycle_costs",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: ["energy", "consumables", "licence", "operation", "insurance", "maintenance", "other"] }).notNull(),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    incurredOn: text("incurred_on").notNull(),
    description: text("description"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_lifecycle_costs_item_idx").on(t.itemId, t.incurredOn)],
);

/** An insurance policy; it covers assets only once approved by a member other than its creator. */
export const financeInsurancePolicies = sqliteTable(
  "finance_insurance_policies",
  {
    id: text("id").primaryKey(),
    insurer: text("insurer").notNull(),
    policyNumber: text("policy_number").notNull(),
    currency: text("currency").notNull(),
    premium: text("premium").notNull(),
    startsOn: text("starts_on").notNull(),
    endsOn: text("ends_on").notNull(),
    state: text("state", { enum: ["pending", "approved"] }).notNull(),
    approvedBy: text("approved_by"),
    approvedAt: text("approved_at"),
    approvalReason: text("approval_reason"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_insurance_policies_number_uq").on(t.insurer, t.policyNumber)],
);

/** An asset insured under an approved policy for a sum; once per policy and asset. */
export const financeCoverages = sqliteTable(
  "finance_coverages",
  {
    id: text("id").primaryKey(),
    policyId: text("policy_id")
      .notNull()
      .references(() => financeInsurancePolicies.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    sumInsured: text("sum_insured").notNull(),
    currency: text("currency").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_coverages_policy_item_uq").on(t.policyId, t.itemId), index("finance_coverages_item_idx").on(t.itemId)],
);

/** A claim for a loss of a covered asset, against the coverage in force on the incident date. */
export const financeInsuranceClaims = sqliteTable(
  "finance_insurance_claims",
  {
    id: text("id").primaryKey(),
    coverageId: text("coverage_id")
      .notNull()
      .references(() => financeCoverages.id),
    policyId: text("policy_id")
      .notNull()
      .references(() => financeInsurancePolicies.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    incidentDate: text("incident_date").notNull(),
    amountClaimed: text("amount_claimed").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    state: text("state", { enum: ["submitted"] }).notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_insurance_claims_item_idx").on(t.itemId), index("finance_insurance_claims_coverage_idx").on(t.coverageId)],
);

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
