// Bodies and answers of finance part 4: journal batches and their export, disposal
// completion, budgets, lifecycle costs and TCO.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, RecordMeta, Timestamp, freeText, orNull } from "../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../platform/money/money.ts";
import { CSV_MEDIA_TYPE } from "../../platform/csv/csv.ts";
import { ENTRY_KINDS } from "./finance.schemas.ts";

const Reason = freeText(1000, { multiline: true });
const AccountCode = z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,39}$/, "must be 1–40 characters: A–Z, 0–9, '.', '_' or '-', starting with a letter or digit");

// ---------------------------------------------------------------- journal batches

export const AccountPair = z
  .strictObject({
    account: AccountCode.openapi({ description: "The asset-side account (takes the entry's own side)" }),
    accountName: freeText(200),
    counterAccount: AccountCode.openapi({ description: "The counter-account (takes the other side)" }),
    counterAccountName: freeText(200),
  })
  .openapi("JournalAccountPair");

export const CreateJournalBatch = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "A closed period of the book; its entries are final" }),
    accounts: z
      .strictObject(Object.fromEntries(ENTRY_KINDS.map((k) => [k, AccountPair.optional()])) as Record<(typeof ENTRY_KINDS)[number], z.ZodOptional<typeof AccountPair>>)
      .optional()
      .openapi({ description: "Per entry kind, overrides of the default chart (the XBRL GL adapter's accounts)" }),
  })
  .openapi("CreateJournalBatch");

export const JournalLineOut = z
  .object({ lineNumber: z.number().int(), account: z.string(), accountName: z.string(), debit: orNull(MoneyOut), credit: orNull(MoneyOut) })
  .openapi("JournalLine");

export const JournalBatch = z
  .object({
    ...RecordMeta,
    bookId: z.string(),
    periodId: z.string(),
    currency: z.string(),
    entryCount: z.number().int(),
    mapping: z.record(z.string(), z.object({ account: z.string(), accountName: z.string(), counterAccount: z.string(), counterAccountName: z.string() })),
    lines: z.array(JournalLineOut),
    totalDebit: MoneyOut,
    totalCredit: MoneyOut,
    state: z.enum(["prepared", "exported"]),
    exportCount: z.number().int(),
    exportedAt: Timestamp.nullable(),
    exportedBy: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi("JournalBatch");

export const JOURNAL_EXPORT_FORMATS = ["csv"] as const;
export const ExportJournalBatch = z.strictObject({ format: z.enum(JOURNAL_EXPORT_FORMATS).optional().openapi({ description: "Default csv" }) }).openapi("ExportJournalBatch");

export const JournalExport = z
  .object({
    batchId: z.string(),
    format: z.enum(JOURNAL_EXPORT_FORMATS),
    mediaType: z.enum([CSV_MEDIA_TYPE]).openapi({ description: "The document's media type (a CSV export: the contract suite checks every one for spreadsheet formulas)" }),
    filename: z.string(),
    document: z.string().openapi({
      description:
        "The serialised journal (RFC 4180 CSV: header row, one row per line, a totals row). A cell that a spreadsheet would run as a formula (starting with =, +, -, @, a tab, CR or LF, their full-width forms, or one of those after spaces) is written as text with a leading apostrophe, unless it is a plain decimal number such as an amount",
    }),
    exportCount: z.number().int(),
    exportedAt: Timestamp,
  })
  .openapi("JournalExport");

// ---------------------------------------------------------------- disposals

export const CompleteDisposal = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "An open period of the book containing valueDate" }),
    valueDate: CalendarDate,
    proceeds: Money.openapi({ description: "What the disposal brought in (0 for a scrapping), in the book's currency" }),
    reason: Reason,
  })
  .openapi("CompleteDisposal");

export const Disposal = z
  .object({
    id: z.string(),
    bookId: z.string(),
    itemId: z.string(),
    periodId: z.string(),
    valueDate: z.string(),
    proceeds: MoneyOut,
    carryingAmount: MoneyOut,
    gainOrLoss: MoneyOut.openapi({ description: "proceeds − carryingAmount, signed: positive a gain, negative a loss" }),
    outcome: z.enum(["gain", "loss", "nil"]),
    entryId: z.string().nullable().openapi({ description: "The disposal value entry derecognising the carrying amount (null when it was zero)" }),
    reason: z.string(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("FinanceDisposal");

// ---------------------------------------------------------------- budgets

export const CreateBudget = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "A period of the book" }),
    name: freeText(200),
    categoryId: Id.optional().openapi({ description: "Only assets of this category count" }),
    locationId: Id.optional().openapi({ description: "Only assets at this location count" }),
    amount: Money.openapi({ description: "In the book's currency" }),
  })
  .openapi("CreateBudget");

export const Budget = z
  .object({
    ...RecordMeta,
    bookId: z.string(),
    periodId: z.string(),
    name: z.string(),
    categoryId: z.string().nullable(),
    locationId: z.string().nullable(),
    amount: MoneyOut,
    version: z.number().int(),
    actual: z
      .object({
        capitalSpend: MoneyOut.openapi({ description: "Acquisitions and additions (net of their reversals) valued in the period" }),
        lifecycleCosts: MoneyOut.openapi({ description: "Lifecycle costs in the book's currency incurred in the period" }),
        total: MoneyOut,
        variance: MoneyOut.openapi({ description: "amount − total, signed: negative is an overspend" }),
        utilisation: z.string().nullable().openapi({ description: "total / amount as a decimal string to 4 places; null for a zero budget" }),
        overBudget: z.boolean(),
        asOf: Timestamp,
      })
      .openapi({ description: "Actual against budget, computed when answered" }),
  })
  .openapi("Budget");

// ---------------------------------------------------------------- lifecycle costs and TCO

export const LIFECYCLE_COST_KINDS = ["energy", "consumables", "licence", "operation", "insurance", "maintenance", "other"] as const;

export const CreateLifecycleCost = z
  .strictObject({
    itemId: Id,
    kind: z.enum(LIFECYCLE_COST_KINDS),
    amount: Money,
    incurredOn: CalendarDate,
    description: freeText(1000, { multiline: true }).optional(),
  })
  .openapi("CreateLifecycleCost");

export const LifecycleCost = z
  .object({
    id: z.string(),
    itemId: z.string(),
    kind: z.enum(LIFECYCLE_COST_KINDS),
    amount: MoneyOut,
    incurredOn: z.string(),
    description: z.string().nullable(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("LifecycleCost");

export const AnalyzeTco = z
  .strictObject({
    bookId: Id.openapi({ description: "The book whose acquisitions and disposals count; its currency is the analysis currency" }),
    itemId: Id.optional(),
    modelId: Id.optional().openapi({ description: "All operator-owned assets of the model (at most 500)" }),
    asOf: CalendarDate.optional().openapi({ description: "Default today (server time)" }),
  })
  .openapi("AnalyzeTco", { description: "Exactly one of itemId or modelId." });

const TcoColumns = {
  acquisition: MoneyOut,
  workOrders: MoneyOut,
  lifecycleCosts: MoneyOut,
  disposalProceeds: MoneyOut,
  total: MoneyOut,
};
export const TcoAnalysis = z
  .object({
    bookId: z.string(),
    itemId: z.string().nullable(),
    modelId: z.string().nullable(),
    asOf: z.string(),
    currency: z.string(),
    assets: z.array(z.object({ itemId: z.string(), ...TcoColumns, ownedMonths: z.number().int(), costPerMonth: orNull(MoneyOut) })),
    totals: z.object(TcoColumns),
    excluded: z.array(z.object({ itemId: z.string(), source: z.string(), id: z.string(), currency: z.string() })).openapi({
      description: "Costs in another currency than the book's, listed and not converted",
    }),
  })
  .openapi("TcoAnalysis", { description: "total = acquisition + workOrders + lifecycleCosts − disposalProceeds" });
