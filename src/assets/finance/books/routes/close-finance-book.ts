import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { Book, CloseBook } from "../books.schemas.ts";
import { closeBook } from "../books.service.ts";

export const closeFinanceBook = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/books/{id}/close",
  operationId: "closeFinanceBook",
  summary: "Close a book (beyond the spec)",
  description: "Beyond the spec: a closed book takes no proposals, runs, reversals or new periods (409 book_inactive); its entries stay. Closing a closed book is 409 state_conflict.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: CloseBook,
  file: import.meta.path,
  responses: { 200: { description: "The closed book", schema: Book } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await closeBook(ctx, params.id, body) }),
});
