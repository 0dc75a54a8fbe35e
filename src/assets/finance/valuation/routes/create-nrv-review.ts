import { defineRoute } from "../../../../platform/http/define-route.ts";
import { CreateNrvReview, NrvReview } from "../nrv.schemas.ts";
import { createNrvReview as review } from "../nrv.service.ts";

export const createNrvReview = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/nrv-reviews",
  operationId: "createNrvReview",
  summary: "Review an asset's carrying amount against its net realisable value",
  description:
    "Takes the asset's carrying amount in the book on `valueDate` (Σ debit − credit of its entries up to it) and compares it with `netRealisableValue` (book currency, 400 otherwise). When NRV is lower, the difference is proposed as an `impairment` credit: a pending `finance_value_entry` workflow case (every proposal rule applies: active book 409 book_inactive, its policy 409 policy_mismatch / policy_inactive, an open period 409 period_closed containing valueDate 400), approved by another member holding finance_approve. " +
    "Otherwise nothing is proposed: never on a carrying amount of zero or less, and never more than the carrying amount (NRV is at least zero); an impairment that entries valued after `valueDate` would leave below zero is 409 carrying_amount_below_floor. The review is recorded either way.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: CreateNrvReview,
  file: import.meta.path,
  responses: { 201: { description: "The review, with the impairment case when one was proposed", schema: NrvReview } },
  handler: async (ctx, { body }) => ({ status: 201, body: await review(ctx, body) }),
});
