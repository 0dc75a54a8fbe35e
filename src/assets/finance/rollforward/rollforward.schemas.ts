// The rollforward: opening, movements by kind and closing per asset, from entries only.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, Timestamp, orNull } from "../../../platform/http/common-schemas.ts";
import { PageQueryShape } from "../../../platform/paging/paging.ts";
import { MoneyOut } from "../../../platform/money/money.ts";
import { Currency } from "../finance.schemas.ts";
import { Period } from "../books/books.schemas.ts";

export const RollforwardQuery = z.strictObject({
  bookId: Id,
  currency: Currency,
  asOf: CalendarDate,
  limit: PageQueryShape.limit,
  cursor: z.string().min(1).max(200).optional().openapi({ description: "nextCursor of the previous page" }),
});

const Columns = {
  opening: MoneyOut,
  additions: MoneyOut,
  depreciation: MoneyOut,
  impairments: MoneyOut,
  disposals: MoneyOut,
  closing: MoneyOut,
};

export const RollforwardLine = z.object({ itemId: z.string(), ...Columns }).openapi("RollforwardLine");

export const Rollforward = z
  .object({
    filter: z.object({ bookId: z.string(), currency: z.string(), asOf: z.string(), limit: z.number().int(), cursor: z.string().nullable() }),
    context: z.object({
      bookName: z.string(),
      openingDate: z.string().openapi({ description: "First day of the fiscal year containing asOf: opening is the carrying amount before it" }),
      asOf: z.string(),
      period: orNull(Period).openapi({ description: "The book's period containing asOf, if any" }),
      generatedAt: Timestamp,
    }),
    items: z.array(RollforwardLine),
    totals: z.object(Columns).openapi("RollforwardTotals"),
    assetCount: z.number().int(),
    nextCursor: z.string().nullable(),
  })
  .openapi("Rollforward");
