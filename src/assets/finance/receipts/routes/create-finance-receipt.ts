import { defineRoute } from "../../../../platform/http/define-route.ts";
import { CreateReceipt, Receipt } from "../receipts.schemas.ts";
import { createReceipt } from "../receipts.service.ts";

export const createFinanceReceipt = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/receipts",
  operationId: "createFinanceReceipt",
  summary: "Record a supplier receipt for an asset",
  description:
    "An append-only supplier receipt (invoice or delivery bill) for an operator-owned asset: supplier, reference (unique per book and supplier, 409 duplicate), date received (not in the future) and a positive amount in the book's currency. `POST /finance/reconcile` compares receipts with acquisition entries.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: CreateReceipt,
  file: import.meta.path,
  responses: { 201: { description: "The receipt", schema: Receipt } },
  handler: async (ctx, { body }) => ({ status: 201, body: await createReceipt(ctx, body) }),
});
