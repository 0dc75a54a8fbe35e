import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { CreatePeriod, Period } from "../books.schemas.ts";
import { createPeriod } from "../books.service.ts";

export const createFiscalPeriod = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/periods",
  operationId: "createFiscalPeriod",
  summary: "Open a fiscal period of a book (beyond the spec)",
  description:
    "Beyond the spec: how periods come to exist. [startsOn, endsOn] inclusive, at most 366 days, in an active book (409 book_inactive), overlapping none of the book's periods (409 duplicate). Created `open`.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  body: CreatePeriod,
  file: import.meta.path,
  responses: { 201: { description: "The period", schema: Period, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const period = await createPeriod(ctx, body);
    return { status: 201, body: period, headers: { Location: `/api/assets/finance/periods?partnerId=${query.partnerId}&bookId=${period.bookId}` } };
  },
});
