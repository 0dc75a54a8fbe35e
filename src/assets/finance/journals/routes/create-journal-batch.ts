import { defineRoute } from "../../../../platform/http/define-route.ts";
import { CreateJournalBatch, JournalBatch } from "../journals.schemas.ts";
import { createJournalBatch as create } from "../journal.service.ts";

export const createJournalBatch = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/journal-batches",
  operationId: "createJournalBatch",
  summary: "Journalise a closed period's value entries into balanced double-entry lines",
  description:
    "Aggregates every value entry of the period (`periodId`, a **closed** period of `bookId`: 409 state_conflict while open) into double-entry lines: each entry posts its amount to its kind's account on its own side and to the counter-account on the other, and lines are netted per account, so total debits equal total credits exactly. " +
    "The chart defaults to the XBRL GL adapter's (PPE-COST/PPE-CLEARING, PPE-ACC-DEPR/DEPR-EXPENSE, …); `accounts` overrides it per entry kind. One batch per period (409 duplicate).",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  body: CreateJournalBatch,
  file: import.meta.path,
  responses: { 201: { description: "The batch", schema: JournalBatch } },
  handler: async (ctx, { body }) => ({ status: 201, body: await create(ctx, body) }),
});
