import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { WorkflowCaseDetail } from "../../../workflow/index.ts";
import { createCase } from "../../../workflow/index.ts";
import { ProposeValueEntry } from "../entries.schemas.ts";
import { validateProposal } from "../entries.service.ts";

export const proposeFinanceValueEntry = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/value-entries",
  operationId: "proposeFinanceValueEntry",
  summary: "Propose a finance value entry (a finance_value_entry workflow case)",
  description: [
    "Creates a `pending` workflow case of type `finance_value_entry`; nothing is posted until a different member holding finance_approve approves it",
    "(POST /workflow-cases/{id}/decision), which writes the append-only value entry and the case's `finance_value_entry` receipt in one commit.",
    "Rules: an operator-owned asset (409 state_conflict for external property); exactly one positive `debit` or `credit` (400), acquisition/addition",
    "as a debit and impairment/disposal as a credit (400), in the book's functional currency (400); an active book (409 book_inactive);",
    "`policyId` equal to the book's policy (409 policy_mismatch) and that policy the active depreciation policy (409 policy_inactive);",
    "an open period of the book (409 period_closed) containing `valueDate` (400). Amounts are decimal strings and currencies ISO 4217 (400 otherwise).",
    "A credit (impairment, disposal) may not take the asset's carrying amount in the book (Σ debit − credit of its entries) below zero on `valueDate` or on any later date",
    "that has entries: 409 carrying_amount_below_floor, with `bookId`, `itemId`, `carryingAmount` (the lowest from valueDate on), `carryingAmountOn`, `amount`, `floor` and `floorBasis`.",
    "Approval checks every rule again (a run posted in between can make an impairment too large).",
  ].join(" "),
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: ProposeValueEntry,
  file: import.meta.path,
  responses: { 201: { description: "The pending workflow case", schema: WorkflowCaseDetail, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const { reason, ...operation } = body;
    // Checked here first so refusals name this body's fields; the case machinery checks again in its transaction.
    await validateProposal(ctx, operation, "/body");
    const created = await createCase(ctx, { type: "finance_value_entry", operation, reason } as Parameters<typeof createCase>[1]);
    return { status: 201, body: created, headers: { Location: `/api/assets/workflow-cases/${created.id}?partnerId=${query.partnerId}` } };
  },
});
