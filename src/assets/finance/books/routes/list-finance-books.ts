import { defineRoute } from "../../../../platform/http/define-route.ts";
import { BookList, ListBooksQuery } from "../books.schemas.ts";
import { listBooks } from "../books.service.ts";

export const listFinanceBooks = defineRoute({
  family: "assets",
  method: "get",
  path: "/finance/books",
  operationId: "listFinanceBooks",
  summary: "List books (beyond the spec)",
  description: "Beyond the spec. Filter: `state`. Newest change first.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  query: ListBooksQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of books", schema: BookList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await listBooks(ctx, query) }),
});
