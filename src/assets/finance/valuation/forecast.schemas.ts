// Replacement forecasts (issue 10, part 4): a read-only computation over depreciation profiles.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";

export const ForecastReplacements = z
  .strictObject({
    bookId: Id.openapi({ description: "The book whose depreciation profiles give the remaining useful life" }),
    itemId: Id.optional(),
    categoryId: Id.optional().openapi({ description: "Every operator-owned, not disposed asset of the category (at most 500)" }),
    asOf: CalendarDate.optional().openapi({ description: "Default today (server time)" }),
    replacementCost: Money.optional().openapi({ description: "The expected cost of a replacement; default each profile's cost" }),
  })
  .openapi("ForecastReplacements", { description: "Exactly one of itemId or categoryId." });

export const ReplacementForecast = z
  .object({
    itemId: z.string(),
    profileId: z.string(),
    componentName: z.string().nullable().openapi({ description: "Set when the forecast is of a component (each live component profile is forecast)" }),
    condition: z.enum(["new", "good", "fair", "poor", "broken"]),
    conditionFactor: z.string().openapi({ description: "new/good 1, fair 0.75, poor 0.5, broken 0 (replace now)" }),
    scheduleEndMonth: z.string().openapi({ description: "The last month (YYYY-MM) of the depreciation schedule" }),
    remainingMonths: z.number().int().openapi({ description: "Schedule months after asOf's month" }),
    adjustedRemainingMonths: z.number().int().openapi({ description: "remainingMonths × conditionFactor, rounded down" }),
    expectedReplacementDate: z.string().openapi({ description: "asOf when adjustedRemainingMonths is 0, else the last day of asOf's month + adjustedRemainingMonths" }),
    expectedReplacementCost: MoneyOut,
  })
  .openapi("ReplacementForecast");

export const ReplacementForecasts = z
  .object({
    bookId: z.string(),
    itemId: z.string().nullable(),
    categoryId: z.string().nullable(),
    asOf: z.string(),
    forecasts: z.array(ReplacementForecast),
    withoutProfile: z.array(z.string()).openapi({ description: "Assets with no live depreciation profile in the book (no forecast)" }),
  })
  .openapi("ReplacementForecasts", { description: "One forecast per live profile (the whole asset's and each component's), ordered by expected replacement date, item id, profile id" });
