import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { CompleteDisposal, Disposal } from "../disposals.schemas.ts";
import { completeDisposal } from "../disposals.service.ts";

export const completeFinanceDisposal = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/disposals/{id}/complete",
  operationId: "completeFinanceDisposal",
  summary: "Complete an asset's disposal in a book: derecognise it and compute the gain or loss",
  description:
    "`id` is the asset, already `disposed` through its lifecycle (409 state_conflict otherwise). Its carrying amount in the book on `valueDate` (Σ debit − credit of its entries) is derecognised by one `disposal` credit entry (none when it is zero); " +
    "`gainOrLoss` = `proceeds` − carrying amount (outcome gain, loss or nil). Once per asset and book (409); no entry of the asset may be valued after `valueDate` (409); the book must be active on the active policy, `periodId` an open period of it containing `valueDate`, `proceeds` in its currency. " +
    "Later depreciation runs skip the asset. A negative carrying amount (only entries from before the carrying-amount rule can leave one) is 409 carrying_amount_below_floor.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: CompleteDisposal,
  file: import.meta.path,
  responses: { 200: { description: "The completed disposal", schema: Disposal } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await completeDisposal(ctx, params.id, body) }),
});
