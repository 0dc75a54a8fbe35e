import { defineRoute } from "../../../../platform/http/define-route.ts";
import { Reconcile, Reconciliation } from "../receipts.schemas.ts";
import { reconcile } from "../receipts.service.ts";

export const reconcileFinanceReceipts = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/reconcile",
  operationId: "reconcileFinanceReceipts",
  summary: "Reconcile supplier receipts against acquisitions",
  description:
    "Per asset, over one period of the book: the receipts received in it against the net acquisition entries valued in it (a reversal cancels its original). Equal sums are `matched`; both present in different amounts are `amountDifferences` (receipts − acquisitions); receipts without a net acquisition are `unmatchedReceipts`; acquisitions without a receipt are `unmatchedAcquisitions`. " +
    "Changes nothing, but it is not one of the contract's read-only POSTs (§6), so it takes an Idempotency-Key like every other mutation route; a replay answers the first result.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: Reconcile,
  file: import.meta.path,
  responses: { 200: { description: "The reconciliation", schema: Reconciliation } },
  handler: async (ctx, { body }) => ({ status: 200, body: await reconcile(ctx, body) }),
});
