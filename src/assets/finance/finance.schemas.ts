import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, RecordMeta, Timestamp, freeText, orNull } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { Money, MoneyOut, isCurrency } from "../../platform/money/money.ts";
import { CONVENTIONS, METHODS } from "./schedule.ts";

export const BOOK_STATES = ["active", "closed"] as const;
export const PERIOD_STATES = ["open", "closed"] as const;
/** Kinds a proposal may carry; `depreciation` entries are posted only by runs. */
export const PROPOSED_KINDS = ["acquisition", "addition", "impairment", "disposal"] as const;
export const ENTRY_KINDS = [...PROPOSED_KINDS, "depreciation"] as const;
/** The side each proposed kind takes on the asset's carrying amount. */
export const SIDE_OF_KIND = { acquisition: "debit", addition: "debit", impairment: "credit", disposal: "credit", depreciation: "credit" } as const;

const Reason = freeText(1000, { multiline: true });
const ISO_CURRENCIES = Intl.supportedValuesOf("currency").filter((c) => /^[A-Z]{3}$/.test(c)).sort();
const Currency = z.string().refine(isCurrency, "must be an ISO 4217 currency code").openapi({ type: "string", enum: ISO_CURRENCIES, example: "EUR", description: "ISO 4217" });
export const Decimal = (what: string) =>
  z
    .string({ error: `must be a decimal string (${what}), not a number` })
    .regex(/^\d{1,9}(\.\d{1,6})?$/, `must be a non-negative decimal string (${what})`);

// ---------------------------------------------------------------- books and periods

export const Book = z
  .object({
    ...RecordMeta,
    name: z.string(),
    functionalCurrency: z.string(),
    policyId: z.string(),
    fiscalYearStartMonth: z.number().int(),
    state: z.enum(BOOK_STATES),
    version: z.number().int(),
  })
  .openapi("FinanceBook");

export const CreateBook = z
  .strictObject({
    name: freeText(200),
    functionalCurrency: Currency,
    policyId: Id.openapi({ description: "The active depreciation policy the book follows" }),
    fiscalYearStartMonth: z.number().int().min(1).max(12).optional().openapi({ description: "1–12, default 1 (January)" }),
  })
  .openapi("CreateFinanceBook");

export const CloseBook = z.strictObject({ expectedVersion: ExpectedVersion.optional(), reason: Reason.optional() }).openapi("CloseFinanceBook");

export const ListBooksQuery = z.strictObject({ state: csvEnum(BOOK_STATES), ...PageQueryShape });
export const BookList = listEnvelope(Book, "FinanceBookList");

export const Period = z
  .object({
    ...RecordMeta,
    bookId: z.string(),
    name: z.string(),
    startsOn: z.string(),
    endsOn: z.string(),
    state: z.enum(PERIOD_STATES),
    closedAt: Timestamp.nullable(),
    closedBy: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi("FiscalPeriod");

export const CreatePeriod = z
  .strictObject({
    bookId: Id,
    name: freeText(100),
    startsOn: CalendarDate,
    endsOn: CalendarDate.openapi({ description: "Inclusive; on or after startsOn, at most 366 days later; no overlap with the book's other periods" }),
  })
  .openapi("CreateFiscalPeriod");

export const ClosePeriod = z.strictObject({ expectedVersion: ExpectedVersion.optional() }).openapi("CloseFiscalPeriod");

export const ListPeriodsQuery = z.strictObject({ bookId: Id.optional(), state: csvEnum(PERIOD_STATES), ...PageQueryShape });
export const PeriodList = listEnvelope(Period, "FiscalPeriodList");

export const FinanceContext = z
  .object({
    books: z.array(Book),
    openPeriods: z.array(Period),
    activePolicies: z.array(z.object({ type: z.string(), id: z.string(), revision: z.number().int() })),
    currencies: z.array(z.string()).openapi({ description: "The books' functional currencies" }),
    capabilities: z.object({ finance_propose: z.boolean(), finance_approve: z.boolean() }),
    asOf: Timestamp,
  })
  .openapi("FinanceContext");

// ---------------------------------------------------------------- value entries

const ProposalShape = {
    bookId: Id.openapi({ description: "An active book" }),
    periodId: Id.openapi({ description: "An open period of the book; valueDate lies in it" }),
    policyId: Id.openapi({ description: "The book's depreciation policy, which must be the active one" }),
    itemId: Id.openapi({ description: "An operator-owned asset (ownership owned)" }),
    kind: z.enum(PROPOSED_KINDS).openapi({ description: "acquisition and addition are debits, impairment and disposal credits" }),
    debit: Money.optional(),
    credit: Money.optional(),
    valueDate: CalendarDate,
    description: freeText(1000, { multiline: true }).optional(),
};
const PROPOSAL_RULE = "Exactly one of debit or credit, positive, in the book's functional currency (400 otherwise).";

export const ValueEntryProposal = z.strictObject(ProposalShape).openapi("FinanceValueEntryOperation", { description: PROPOSAL_RULE });

export const ProposeValueEntry = z
  .strictObject({ ...ProposalShape, reason: Reason.optional().openapi({ description: "Why the maker proposes it" }) })
  .openapi("ProposeFinanceValueEntry", { description: PROPOSAL_RULE });

export const ValueEntry = z
  .object({
    id: z.string(),
    bookId: z.string(),
    periodId: z.string(),
    itemId: z.string(),
    kind: z.enum(ENTRY_KINDS),
    debit: orNull(MoneyOut),
    credit: orNull(MoneyOut),
    valueDate: z.string(),
    description: z.string().nullable(),
    policyId: z.string(),
    workflowCaseId: z.string().nullable(),
    profileId: z.string().nullable(),
    scheduleMonth: z.string().nullable(),
    reversesEntryId: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("FinanceValueEntry");

export const ReverseValueEntry = z
  .strictObject({
    reason: Reason,
    periodId: Id.optional().openapi({ description: "An open period of the same book; default the original's period" }),
    valueDate: CalendarDate.optional().openapi({ description: "In that period; default the original's value date when in it, else the period's first day" }),
  })
  .openapi("ReverseFinanceValueEntry");

// ---------------------------------------------------------------- depreciation

export const CreateDepreciationProfile = z
  .strictObject({
    bookId: Id,
    itemId: Id,
    cost: Money,
    residualValue: Money,
    startDate: CalendarDate,
    usefulLifeMonths: z.number().int().min(1).max(1200).optional().openapi({ description: "Default: the active depreciation policy's rule for the item's category" }),
    method: z.enum(METHODS).optional().openapi({ description: "Default: the policy's rule" }),
    convention: z.enum(CONVENTIONS).optional().openapi({ description: "Default: the policy's rule (400 if it is one this service does not compute)" }),
    decliningRate: Decimal("annual rate such as \"0.40\"").optional().openapi({ description: "declining_balance only: annual rate, above 0 and at most 10" }),
    unitsPlan: z.array(Decimal("units")).max(1200).optional().openapi({ description: "units_of_production only: expected units per month, one per month of useful life" }),
    componentName: freeText(100).optional().openapi({ description: "Makes the profile a component of the asset (replaceable through /finance/components/{id}/replace); one live profile per component name, besides at most one whole-asset profile" }),
  })
  .openapi("CreateDepreciationProfile");

export const Estimate = z
  .object({
    seq: z.number().int(),
    effectiveMonth: z.string(),
    usefulLifeMonths: z.number().int(),
    residualValue: MoneyOut,
    openingCarrying: MoneyOut,
    unitsPlan: z.array(z.string()).nullable(),
    reason: z.string().nullable(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("DepreciationEstimate");

export const DepreciationProfile = z
  .object({
    ...RecordMeta,
    bookId: z.string(),
    itemId: z.string(),
    method: z.enum(METHODS),
    decliningRate: z.string().nullable(),
    convention: z.enum(CONVENTIONS),
    cost: MoneyOut,
    residualValue: MoneyOut,
    usefulLifeMonths: z.number().int(),
    startDate: z.string(),
    postedThrough: z.string().nullable(),
    componentName: z.string().nullable().openapi({ description: "Set for a component of the asset" }),
    replacedById: z.string().nullable().openapi({ description: "A replaced component: the profile of its replacement (it depreciates no more)" }),
    replacedOn: z.string().nullable(),
    estimates: z.array(Estimate).openapi({ description: "Estimate history, oldest first" }),
    version: z.number().int(),
  })
  .openapi("DepreciationProfile");

export const ScheduleRow = z
  .object({
    month: z.string(),
    amount: z.string(),
    accumulated: z.string().openapi({ description: "Depreciation of the schedule up to and including this month" }),
    carryingAmount: z.string().openapi({ description: "The estimate's opening carrying amount minus its depreciation so far" }),
    basis: z.enum(["straight_line", "declining_balance", "sum_of_years_digits", "units_of_production"]),
    estimateSeq: z.number().int(),
    posted: z.boolean(),
  })
  .openapi("DepreciationScheduleRow");

export const Schedule = z
  .object({
    profileId: z.string(),
    method: z.enum(METHODS),
    convention: z.enum(CONVENTIONS),
    currency: z.string(),
    cost: z.string(),
    residualValue: z.string(),
    total: z.string().openapi({ description: "Sum of every row's amount" }),
    rows: z.array(ScheduleRow),
  })
  .openapi("DepreciationSchedule");

export const ScheduleRequest = z.strictObject({}).openapi("DepreciationScheduleRequest");

export const RunDepreciation = z
  .strictObject({ periodId: Id.openapi({ description: "An open period of the book in the path" }) })
  .openapi("RunDepreciation");

export const DepreciationRunSkip = z
  .object({
    itemId: z.string(),
    profileId: z.string(),
    month: z.string().openapi({ description: "The first schedule month not posted (it and the months after it stay due; a later run catches them up once the carrying amount allows)" }),
    code: z.enum(["carrying_amount_below_floor"]).openapi({ description: "The rule: a carrying amount never goes below its floor" }),
    amount: MoneyOut.openapi({ description: "The month's charge that would have applied" }),
    carryingAmount: MoneyOut.openapi({ description: "The asset's lowest carrying amount in the book from the month's value date on (Σ debit − credit of its entries)" }),
    carryingAmountOn: CalendarDate,
    floor: MoneyOut.openapi({ description: "The residual values of the asset's live profiles in the book (zero when none)" }),
  })
  .openapi("DepreciationRunSkip");

export const DepreciationRun = z
  .object({
    id: z.string(),
    bookId: z.string(),
    periodId: z.string(),
    total: MoneyOut,
    entries: z.array(ValueEntry),
    skipped: z.array(DepreciationRunSkip).openapi({
      description:
        "Profiles the run left at a month whose charge would take the asset's carrying amount below its floor (an asset with no acquisition in the book, or one impaired towards its residual value): nothing of theirs is posted from that month on",
    }),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("DepreciationRun");

export const ChangeEstimate = z
  .strictObject({
    expectedVersion: ExpectedVersion.optional(),
    usefulLifeMonths: z.number().int().min(1).max(1200).optional().openapi({ description: "New total useful life from startDate" }),
    residualValue: Money.optional(),
    unitsPlan: z.array(Decimal("units")).max(1200).optional().openapi({ description: "units_of_production: units per remaining month (required there)" }),
    reason: Reason,
  })
  .openapi("ChangeDepreciationEstimate");

// ---------------------------------------------------------------- rollforward and adapters

export const RollforwardQuery = z.strictObject({
  bookId: Id,
  currency: Currency,
  asOf: CalendarDate,
  limit: PageQueryShape.limit,
  cursor: z.string().min(1).max(200).optional().openapi({ description: "nextCursor of the previous page" }),
});

const Columns = {
  opening: MoneyOut,
  additions: MoneyOut,
  depreciation: MoneyOut,
  impairments: MoneyOut,
  disposals: MoneyOut,
  closing: MoneyOut,
};

export const RollforwardLine = z.object({ itemId: z.string(), ...Columns }).openapi("RollforwardLine");

export const Rollforward = z
  .object({
    filter: z.object({ bookId: z.string(), currency: z.string(), asOf: z.string(), limit: z.number().int(), cursor: z.string().nullable() }),
    context: z.object({
      bookName: z.string(),
      openingDate: z.string().openapi({ description: "First day of the fiscal year containing asOf: opening is the carrying amount before it" }),
      asOf: z.string(),
      period: orNull(Period).openapi({ description: "The book's period containing asOf, if any" }),
      generatedAt: Timestamp,
    }),
    items: z.array(RollforwardLine),
    totals: z.object(Columns).openapi("RollforwardTotals"),
    assetCount: z.number().int(),
    nextCursor: z.string().nullable(),
  })
  .openapi("Rollforward");

export const ADAPTER_FORMATS = ["ubl-2.3", "xbrl-gl-2025", "ifrs"] as const;
export const AdapterParams = z.strictObject({ format: z.enum(ADAPTER_FORMATS) });
export const AdapterQuery = z.strictObject({ bookId: Id, asOf: CalendarDate });

export const AdapterDocument = z
  .object({
    format: z.enum(ADAPTER_FORMATS),
    mappingVersion: z.string(),
    disclaimer: z.string(),
    mediaType: z.string(),
    bookId: z.string(),
    asOf: z.string(),
    document: z.string().openapi({ description: "The serialised document (XML, or xBRL-JSON for ifrs)" }),
  })
  .openapi("FinanceAdapterDocument");
