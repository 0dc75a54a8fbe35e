// Replacement forecasts: when an asset is expected to need replacing and at what
// cost. Computed when asked from the depreciation schedule (remaining useful life)
// and the item's current condition; nothing is written.
import { and, asc, eq, inArray, isNull, ne } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db } from "../../../platform/db/transactions.ts";
import { visibleRows } from "../../../platform/db/pending.ts";
import { items } from "../../kernel/kernel.tables.ts";
import { requireCategory } from "../../catalogue/index.ts";
import { depreciationEstimates, depreciationProfiles } from "../depreciation/depreciation.tables.ts";
import { requireBook } from "../books/books.service.ts";
import { requireOwnedItem } from "../value-entries/entries.service.ts";
import { disposedItemIds } from "./disposals.service.ts";
import { scheduleRows } from "../depreciation/depreciation.service.ts";
import { Dec, addMonths, lastDayOf, monthOf, monthsBetween } from "../depreciation/schedule.ts";
import type { ForecastReplacements, ReplacementForecast, ReplacementForecasts } from "./forecast.schemas.ts";

/** A forecast over a category reads every asset of it; above this it is refused (400) rather than slow. */
export const FORECAST_MAX_ASSETS = 500;

type Condition = (typeof items.$inferSelect)["condition"];

/**
 * Share of the remaining useful life an asset in this condition is expected to
 * last: wear beyond the normal shortens it, a broken asset is replaced now.
 */
export const CONDITION_FACTORS: Record<Condition, string> = { new: "1", good: "1", fair: "0.75", poor: "0.5", broken: "0" };

type Forecast = z.infer<typeof ReplacementForecast>;

export async function forecastReplacements(ctx: RequestCtx, input: z.output<typeof ForecastReplacements>): Promise<z.infer<typeof ReplacementForecasts>> {
  if ((input.itemId === undefined) === (input.categoryId === undefined)) throw invalid(input.itemId ? "/body/categoryId" : "/body/itemId", "exactly one of itemId or categoryId is required");
  const asOf = input.asOf ?? ctx.nowIso.slice(0, 10);
  const book = await requireBook(ctx, input.bookId, "/body/bookId");
  const disposed = await disposedItemIds(ctx, book.id);
  let assets: { id: string; condition: Condition }[];
  if (input.itemId !== undefined) {
    const item = await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    if (item.lifecycle === "disposed" || disposed.has(item.id)) throw new AppError("state_conflict", `item ${item.id} is disposed; there is nothing left to replace`);
    assets = [{ id: item.id, condition: item.condition }];
  } else {
    await requireCategory(ctx, input.categoryId!, "/body/categoryId");
    const rows = await db(ctx)
      .select({ id: items.id, condition: items.condition })
      .from(items)
      .where(and(eq(items.ownership, "owned"), eq(items.categoryId, input.categoryId!), ne(items.lifecycle, "disposed"), visibleRows(items)))
      .orderBy(asc(items.id))
      .limit(FORECAST_MAX_ASSETS + 1);
    if (rows.length > FORECAST_MAX_ASSETS) throw invalid("/body/categoryId", `the category has more than ${FORECAST_MAX_ASSETS} assets; forecast them one by one`);
    assets = rows.filter((r) => !disposed.has(r.id));
  }
  const ids = assets.map((a) => a.id);
  // Every live profile: the whole asset's and each component not yet replaced.
  const profiles = ids.length
    ? await db(ctx)
        .select()
        .from(depreciationProfiles)
        .where(and(eq(depreciationProfiles.bookId, book.id), inArray(depreciationProfiles.itemId, ids), isNull(depreciationProfiles.replacedOn)))
        .orderBy(asc(depreciationProfiles.id))
    : [];
  const profilesOf = Map.groupBy(profiles, (p) => p.itemId);
  const estimates = profiles.length
    ? await db(ctx).select().from(depreciationEstimates).where(inArray(depreciationEstimates.profileId, profiles.map((p) => p.id))).orderBy(asc(depreciationEstimates.seq))
    : [];
  const asOfMonth = monthOf(asOf);
  const forecasts: Forecast[] = [];
  const withoutProfile: string[] = [];
  for (const asset of assets) {
    const own = profilesOf.get(asset.id) ?? [];
    if (own.length === 0) withoutProfile.push(asset.id);
    for (const profile of own) {
    const rows = scheduleRows(profile, estimates.filter((e) => e.profileId === profile.id));
    // A schedule always has a month; a degenerate one (no rows) ends where it starts.
    const endMonth = rows.length ? rows[rows.length - 1]!.month : monthOf(profile.startDate);
    const remaining = Math.max(0, monthsBetween(asOfMonth, endMonth));
    const factor = CONDITION_FACTORS[asset.condition];
    const adjusted = new Dec(remaining).times(factor).floor().toNumber();
    forecasts.push({
      itemId: asset.id,
      profileId: profile.id,
      componentName: profile.componentName,
      condition: asset.condition,
      conditionFactor: factor,
      scheduleEndMonth: endMonth,
      remainingMonths: remaining,
      adjustedRemainingMonths: adjusted,
      expectedReplacementDate: adjusted === 0 ? asOf : lastDayOf(addMonths(asOfMonth, adjusted)),
      expectedReplacementCost: input.replacementCost ?? { amount: profile.cost, currency: profile.currency },
    });
    }
  }
  if (input.itemId !== undefined && withoutProfile.length) {
    throw new AppError("state_conflict", `item ${input.itemId} has no depreciation profile in book ${book.id}; create one first`);
  }
  forecasts.sort((a, b) => (a.expectedReplacementDate < b.expectedReplacementDate ? -1 : a.expectedReplacementDate > b.expectedReplacementDate ? 1 : a.itemId !== b.itemId ? (a.itemId < b.itemId ? -1 : 1) : a.profileId < b.profileId ? -1 : 1));
  return { bookId: book.id, itemId: input.itemId ?? null, categoryId: input.categoryId ?? null, asOf, forecasts, withoutProfile };
}
