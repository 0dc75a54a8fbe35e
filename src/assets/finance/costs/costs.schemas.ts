// Budgets, lifecycle costs and TCO.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, RecordMeta, Timestamp, freeText, orNull } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";

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
