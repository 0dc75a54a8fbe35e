// overdue_custody_escalation: for a checkout past its dueAt, mark the item lost, demand
// its return, or write it off (the checkout ends and the item is disposed of).
import { z } from "@hono/zod-openapi";
import { Id } from "../../../platform/http/common-schemas.ts";
import { loadItem, recordItemHistory } from "../../kernel/index.ts";
import { escalateOverdueCheckout, ESCALATION_ACTIONS, requireOverdueCheckout } from "../../custody/index.ts";
import { defineOperation, OP, type ReceiptEntry } from "./operation.ts";
import { applyDisposal, assertDisposable } from "./disposal.ts";

export const OverdueCustodyEscalationOperation = z
  .strictObject({
    checkoutId: Id.openapi({ description: "A checked-out checkout past its dueAt" }),
    action: z.enum(ESCALATION_ACTIONS).openapi({
      description:
        "mark_lost: the item is recorded lost, the checkout stays open; demand_return: recorded on the checkout, which stays open; " +
        "write_off: the checkout ends and the item is retired and disposed of (method other)",
    }),
  })
  .openapi("OverdueCustodyEscalationOperation");

export const overdueCustodyEscalation = defineOperation({
  type: "overdue_custody_escalation",
  summary: "for an overdue checkout: mark the item lost, demand its return, or write it off",
  schema: OverdueCustodyEscalationOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    const checkout = await requireOverdueCheckout(ctx, op.checkoutId, `${OP}/checkoutId`);
    if (op.action === "write_off") await assertDisposable(ctx, await loadItem(ctx, checkout.itemId), "dispose", { exceptCheckoutId: checkout.id });
  },
  async apply(ctx, op, application) {
    const before = await requireOverdueCheckout(ctx, op.checkoutId, `${OP}/checkoutId`);
    const checkout = await escalateOverdueCheckout(ctx, op.checkoutId, { action: op.action, reason: application.reason, workflowCaseId: application.caseId });
    const entries: ReceiptEntry[] = [{ recordType: "checkout", recordId: checkout.id, version: checkout.version }];
    if (op.action === "mark_lost") {
      await recordItemHistory(ctx, before.itemId, "marked_lost", { checkoutId: checkout.id, holder: before.holder, workflowCaseId: application.caseId }, application.reason);
    }
    if (op.action === "write_off") {
      const item = await applyDisposal(ctx, before.itemId, "dispose", { caseId: application.caseId, reason: application.reason, method: "other" });
      entries.push({ recordType: "item", recordId: item.id, version: item.version });
    }
    return entries;
  },
});
