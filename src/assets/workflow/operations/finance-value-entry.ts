// finance_value_entry: a typed finance value entry (acquisition, addition,
// impairment, disposal). The finance module owns the rules and the write; this
// module only wires them into the case machinery.
import { ValueEntryProposal } from "../../finance/index.ts";
import { applyProposal, validateProposal } from "../../finance/index.ts";
import { defineOperation, OP } from "./operation.ts";

export const financeValueEntry = defineOperation({
  type: "finance_value_entry",
  summary: "post an append-only value entry for an operator-owned asset into an open period of an active book (see POST /finance/value-entries)",
  schema: ValueEntryProposal,
  proposeCapability: "finance_propose",
  decideCapability: "finance_approve",
  validate: (ctx, op) => validateProposal(ctx, op, OP),
  async apply(ctx, op, application) {
    const entry = await applyProposal(ctx, op, application.caseId, application.reason);
    return [{ recordType: "finance_value_entry", recordId: entry.id, version: 1 }];
  },
});
