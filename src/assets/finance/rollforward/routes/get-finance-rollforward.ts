import { defineRoute } from "../../../../platform/http/define-route.ts";
import { Rollforward, RollforwardQuery } from "../rollforward.schemas.ts";
import { rollforward } from "../rollforward.service.ts";

export const getFinanceRollforward = defineRoute({
  family: "assets",
  method: "get",
  path: "/finance/rollforward",
  operationId: "getFinanceRollforward",
  summary: "Carrying-amount rollforward of a book as of a date",
  description:
    "Per asset (by item id, `limit` per page, `nextCursor` for the next) and in total over every asset: `opening` (the carrying amount before the first day of the book's fiscal year containing `asOf`) " +
    "+ `additions` (acquisitions and additions) − `depreciation` − `impairments` − `disposals` = `closing` (every entry dated on or before `asOf`), exact to the minor unit; reversals count in their original's column. " +
    "`currency` must be the book's functional currency (400); an unknown `bookId` is 404. The response echoes the applied filter and the as-of context (opening date, the period containing asOf).",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  query: RollforwardQuery,
  problems: [404],
  file: import.meta.path,
  responses: { 200: { description: "The rollforward", schema: Rollforward } },
  handler: async (ctx, { query }) => ({ status: 200, body: await rollforward(ctx, query) }),
});
