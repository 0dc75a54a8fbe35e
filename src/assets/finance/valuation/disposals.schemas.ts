// Disposal completion in the books.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, Timestamp } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";
import { Reason } from "../finance.schemas.ts";

export const CompleteDisposal = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "An open period of the book containing valueDate" }),
    valueDate: CalendarDate,
    proceeds: Money.openapi({ description: "What the disposal brought in (0 for a scrapping), in the book's currency" }),
    reason: Reason,
  })
  .openapi("CompleteDisposal");

export const Disposal = z
  .object({
    id: z.string(),
    bookId: z.string(),
    itemId: z.string(),
    periodId: z.string(),
    valueDate: z.string(),
    proceeds: MoneyOut,
    carryingAmount: MoneyOut,
    gainOrLoss: MoneyOut.openapi({ description: "proceeds − carryingAmount, signed: positive a gain, negative a loss" }),
    outcome: z.enum(["gain", "loss", "nil"]),
    entryId: z.string().nullable().openapi({ description: "The disposal value entry derecognising the carrying amount (null when it was zero)" }),
    reason: z.string(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("FinanceDisposal");
