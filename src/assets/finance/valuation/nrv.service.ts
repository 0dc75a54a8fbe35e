// Net-realisable-value reviews: the asset's carrying amount in the book on the review
// date against its NRV; when NRV is lower, the difference is proposed as an impairment
// credit through the finance_value_entry workflow (the same rules and maker/checker
// approval as any proposal). The review and its case are written in one transaction.
import type { z } from "@hono/zod-openapi";
import { invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { withTx, writer } from "../../../platform/db/transactions.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { createCase } from "../../workflow/index.ts";
import { financeNrvReviews } from "./valuation.tables.ts";
import { requireBook, requireOpenPeriod, assertInPeriod } from "../books/books.service.ts";
import { requireOwnedItem, validateProposal, type Proposal } from "../value-entries/entries.service.ts";
import { carryingAmount } from "../value-entries/carrying.ts";
import { Dec, fixed } from "../depreciation/schedule.ts";
import type { CreateNrvReview, NrvReview } from "./nrv.schemas.ts";

type ReviewRow = typeof financeNrvReviews.$inferSelect;

function toReviewDto(r: ReviewRow): z.infer<typeof NrvReview> {
  const money = (amount: string) => ({ amount, currency: r.currency });
  const { currency: _c, ...rest } = r;
  return { ...rest, carryingAmount: money(r.carryingAmount), netRealisableValue: money(r.netRealisableValue), impairment: money(r.impairment) };
}

export async function createNrvReview(ctx: RequestCtx, input: z.output<typeof CreateNrvReview>): Promise<z.infer<typeof NrvReview>> {
  return withTx(ctx, async (ctx) => {
    const book = await requireBook(ctx, input.bookId, "/body/bookId");
    await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    if (input.netRealisableValue.currency !== book.functionalCurrency) throw invalid("/body/netRealisableValue/currency", `the book keeps ${book.functionalCurrency}`);
    const period = await requireOpenPeriod(ctx, book, input.periodId, "/body/periodId");
    assertInPeriod(period, input.valueDate, "/body/valueDate");
    const digits = minorUnits(book.functionalCurrency);
    const carrying = await carryingAmount(ctx, book.id, input.itemId, input.valueDate);
    const nrv = new Dec(input.netRealisableValue.amount);
    const shortfall = carrying.minus(nrv);
    let workflowCaseId: string | null = null;
    // Nothing is impaired out of a carrying amount of zero or less, and never more than the carrying amount
    // (NRV ≥ 0); validateProposal applies the floor to the entries after valueDate too.
    if (carrying.gt(0) && shortfall.gt(0)) {
      const operation: Proposal = {
        bookId: book.id,
        periodId: period.id,
        policyId: input.policyId,
        itemId: input.itemId,
        kind: "impairment",
        credit: { amount: fixed(shortfall, digits), currency: book.functionalCurrency },
        valueDate: input.valueDate,
        description: `NRV review: carrying amount ${fixed(carrying, digits)} above net realisable value ${fixed(nrv, digits)}`,
      };
      // The proposal rules (active book, matching active policy, open period…) with this body's paths.
      await validateProposal(ctx, operation, "/body");
      const created = await createCase(ctx, { type: "finance_value_entry", operation, reason: input.reason } as Parameters<typeof createCase>[1]);
      workflowCaseId = created.id;
    }
    const row: ReviewRow = {
      id: ctx.deps.newId(),
      bookId: book.id,
      periodId: period.id,
      itemId: input.itemId,
      valueDate: input.valueDate,
      currency: book.functionalCurrency,
      carryingAmount: fixed(carrying, digits),
      netRealisableValue: fixed(nrv, digits),
      impairment: fixed(workflowCaseId ? shortfall : new Dec(0), digits),
      outcome: workflowCaseId ? "impairment_proposed" : "no_impairment",
      workflowCaseId,
      reason: input.reason,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(financeNrvReviews).values(row);
    return toReviewDto(row);
  });
}
