// Bodies and answers of supplier receipts and their reconciliation against acquisitions.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";

export const CreateReceipt = z
  .strictObject({
    bookId: Id,
    itemId: Id.openapi({ description: "The operator-owned asset the receipt is for" }),
    supplier: freeText(200),
    reference: freeText(100).openapi({ description: "The supplier's invoice or delivery number; unique per book and supplier" }),
    receivedOn: CalendarDate.openapi({ description: "Not in the future" }),
    amount: Money.openapi({ description: "Positive, in the book's currency" }),
  })
  .openapi("CreateFinanceReceipt");

export const Receipt = z
  .object({
    id: z.string(),
    bookId: z.string(),
    itemId: z.string(),
    supplier: z.string(),
    reference: z.string(),
    receivedOn: z.string(),
    amount: MoneyOut,
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("FinanceReceipt");

export const Reconcile = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "A period of the book: receipts received and acquisition entries valued in it are compared" }),
  })
  .openapi("ReconcileReceipts");

const ItemLine = {
  itemId: z.string(),
  receiptIds: z.array(z.string()),
  entryIds: z.array(z.string()).openapi({ description: "Acquisition entries of the asset in the window, reversals included" }),
  receipts: MoneyOut.openapi({ description: "Sum of the asset's receipts" }),
  acquisitions: MoneyOut.openapi({ description: "Net acquisition (debits − credits) of the asset" }),
};

export const Reconciliation = z
  .object({
    bookId: z.string(),
    periodId: z.string(),
    from: z.string(),
    to: z.string(),
    currency: z.string(),
    matched: z.array(z.object(ItemLine)).openapi({ description: "Assets whose receipts equal their net acquisition exactly" }),
    amountDifferences: z
      .array(z.object({ ...ItemLine, difference: MoneyOut.openapi({ description: "receipts − acquisitions, signed" }) }))
      .openapi({ description: "Assets with both, in different amounts" }),
    unmatchedReceipts: z.array(z.object(ItemLine)).openapi({ description: "Assets with receipts but no net acquisition" }),
    unmatchedAcquisitions: z.array(z.object(ItemLine)).openapi({ description: "Assets with a net acquisition but no receipt" }),
    totals: z.object({ receipts: MoneyOut, acquisitions: MoneyOut, difference: MoneyOut }),
    asOf: Timestamp,
  })
  .openapi("ReceiptReconciliation", { description: "Per asset, receipts against acquisition value entries of the book in the period" });
