// Component replacement: the old component's carrying amount is derecognised (a
// disposal credit), the new component capitalised (an addition debit) with its own
// depreciation profile from the next month, and the old profile stops depreciating,
// all in one transaction. Posted directly by the finance_approve holder, like a
// disposal completion or a depreciation run.
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { saveVersion } from "../../../platform/db/records.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { findItem } from "../../kernel/index.ts";
import { depreciationProfiles } from "../depreciation/depreciation.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { assertBookActive, assertBookPolicyActive, assertInPeriod, findBook, requireOpenPeriod } from "../books/books.service.ts";
import { appendEntry, toEntryDto } from "../value-entries/entries.service.ts";
import { disposedItemIds } from "./disposals.service.ts";
import { createProfile, loadProfile, toProfileDto } from "../depreciation/depreciation.service.ts";
import { Dec, addMonths, fixed, monthOf } from "../depreciation/schedule.ts";
import type { ComponentReplacement, ReplaceComponent } from "./components.schemas.ts";

/** The component's carrying amount: its cost less the depreciation posted for its profile. */
async function componentCarrying(ctx: RequestCtx, profile: typeof depreciationProfiles.$inferSelect): Promise<Dec> {
  const rows = await db(ctx)
    .select({ side: financeValueEntries.side, amount: financeValueEntries.amount })
    .from(financeValueEntries)
    .where(and(eq(financeValueEntries.profileId, profile.id), inArray(financeValueEntries.kind, ["depreciation"])));
  return rows.reduce((a, e) => (e.side === "credit" ? a.minus(e.amount) : a.plus(e.amount)), new Dec(profile.cost));
}

/**
 * `id` is a component profile (409 for a whole-asset profile or one already
 * replaced). Checks: the asset still operator-owned and not disposed (in its
 * lifecycle or in the book), the book active on the active policy, `periodId` an
 * open period containing `valueDate`, no depreciation of the component posted for a
 * month after valueDate's (409), money in the book's currency.
 */
export async function replaceComponent(ctx: RequestCtx, id: string, input: z.output<typeof ReplaceComponent>): Promise<z.infer<typeof ComponentReplacement>> {
  return withTx(ctx, async (ctx) => {
    const { profile: old, estimates } = await loadProfile(ctx, id);
    assertVersion("depreciation profile", old, input.expectedVersion);
    if (old.componentName === null) throw new AppError("state_conflict", `profile ${old.id} depreciates the whole asset, not a component; only components are replaced`);
    if (old.replacedOn !== null) {
      throw new AppError("state_conflict", `the component was already replaced on ${old.replacedOn} (profile ${old.replacedById})`, { extras: { replacedById: old.replacedById } });
    }
    const book = (await findBook(ctx, old.bookId))!;
    for (const [field, money] of [["cost", input.cost], ["residualValue", input.residualValue]] as const) {
      if (money && money.currency !== book.functionalCurrency) throw invalid(`/body/${field}/currency`, `the book keeps ${book.functionalCurrency}`);
    }
    assertBookActive(book);
    await assertBookPolicyActive(ctx, book);
    const period = await requireOpenPeriod(ctx, book, input.periodId, "/body/periodId");
    assertInPeriod(period, input.valueDate, "/body/valueDate");
    const item = (await findItem(ctx, old.itemId))!;
    if (item.ownership !== "owned") throw new AppError("state_conflict", `item ${item.id} is ${item.ownership} property, not operator-owned`);
    if (item.lifecycle === "disposed" || (await disposedItemIds(ctx, book.id)).has(item.id)) throw new AppError("state_conflict", `item ${item.id} is disposed; its components are no longer replaced`);
    const month = monthOf(input.valueDate);
    if (old.postedThrough !== null && old.postedThrough > month) {
      throw new AppError("state_conflict", `the component's depreciation is posted through ${old.postedThrough}, after the replacement's month ${month}`, { extras: { postedThrough: old.postedThrough } });
    }
    const digits = minorUnits(book.functionalCurrency);
    const carrying = await componentCarrying(ctx, old);
    const name = input.componentName ?? old.componentName;
    const entryFacts = { bookId: book.id, periodId: period.id, itemId: item.id, currency: book.functionalCurrency, valueDate: input.valueDate, policyId: book.policyId, workflowCaseId: null, scheduleMonth: null, reversesEntryId: null, reason: input.reason };
    const derecognition = carrying.isZero()
      ? null
      : await appendEntry(ctx, { ...entryFacts, kind: "disposal", side: "credit", amount: fixed(carrying, digits), description: `derecognition of component ${old.componentName} on replacement`, profileId: old.id });
    // The old profile leaves its component slot (live = replacedOn null, unique per name) before the new one takes it.
    const retired = await saveVersion(writer(ctx), depreciationProfiles, old, { replacedOn: input.valueDate }, ctx.nowIso);
    const replacement = await createProfile(ctx, {
      bookId: book.id,
      itemId: item.id,
      cost: input.cost,
      residualValue: input.residualValue ?? { amount: fixed(new Dec(0), digits), currency: book.functionalCurrency },
      startDate: `${addMonths(month, 1)}-01`,
      usefulLifeMonths: input.usefulLifeMonths ?? old.usefulLifeMonths,
      method: old.method,
      convention: old.convention,
      decliningRate: old.decliningRate ?? undefined,
      unitsPlan: input.unitsPlan,
      componentName: name,
    });
    // Same change, same version: only the new profile's id was not known yet.
    await writer(ctx).update(depreciationProfiles).set({ replacedById: replacement.id }).where(eq(depreciationProfiles.id, old.id));
    const addition = await appendEntry(ctx, { ...entryFacts, kind: "addition", side: "debit", amount: input.cost.amount, description: `component ${name} replacing ${old.componentName}`, profileId: null });
    return {
      replaced: toProfileDto({ ...retired, replacedById: replacement.id }, estimates),
      replacement,
      carryingAmount: { amount: fixed(carrying, digits), currency: book.functionalCurrency },
      derecognition: derecognition && toEntryDto(derecognition),
      addition: toEntryDto(addition),
    };
  });
}
