import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { Book, CreateBook } from "../books.schemas.ts";
import { createBook } from "../books.service.ts";

export const createFinanceBook = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/books",
  operationId: "createFinanceBook",
  summary: "Create a book (beyond the spec)",
  description:
    "Beyond the spec: how books come to exist. `policyId` must name a depreciation policy (400 otherwise) that is active (409 policy_inactive). The book starts `active`; `fiscalYearStartMonth` (default 1) sets where the rollforward's fiscal year opens.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  body: CreateBook,
  file: import.meta.path,
  responses: { 201: { description: "The book", schema: Book, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const book = await createBook(ctx, body);
    return { status: 201, body: book, headers: { Location: `/api/assets/finance/books?partnerId=${query.partnerId}` } };
  },
});
