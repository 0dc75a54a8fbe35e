// Depreciation profiles, estimates, schedules, runs and changes of estimate.
import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, RecordMeta, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";
import { Decimal, Reason } from "../finance.schemas.ts";
import { ValueEntry } from "../value-entries/entries.schemas.ts";
import { CONVENTIONS, METHODS } from "./schedule.ts";

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
