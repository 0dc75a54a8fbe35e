// Bodies and answers of net-realisable-value (impairment) reviews.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";

export const CreateNrvReview = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "An open period of the book containing valueDate (where an impairment would post)" }),
    policyId: Id.openapi({ description: "The book's depreciation policy (the impairment proposal names it)" }),
    itemId: Id.openapi({ description: "An operator-owned asset" }),
    valueDate: CalendarDate.openapi({ description: "The review date: the carrying amount is taken on it" }),
    netRealisableValue: Money.openapi({ description: "Estimated selling price less costs to sell, ≥ 0, in the book's currency" }),
    reason: freeText(1000, { multiline: true }).openapi({ description: "The basis of the estimate" }),
  })
  .openapi("CreateNrvReview");

export const NrvReview = z
  .object({
    id: z.string(),
    bookId: z.string(),
    periodId: z.string(),
    itemId: z.string(),
    valueDate: z.string(),
    carryingAmount: MoneyOut.openapi({ description: "Σ(debit − credit) of the asset's entries in the book valued on or before valueDate" }),
    netRealisableValue: MoneyOut,
    impairment: MoneyOut.openapi({ description: "carryingAmount − netRealisableValue when positive, else 0" }),
    outcome: z.enum(["impairment_proposed", "no_impairment"]),
    workflowCaseId: z.string().nullable().openapi({ description: "The pending finance_value_entry case proposing the impairment credit" }),
    reason: z.string(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("NrvReview");
