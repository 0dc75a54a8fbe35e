// external_property_return: an externally owned item goes back to its owner. It leaves
// the register for good (active or retired → disposed, method return_to_lessor, one
// item version) with a `returned_to_owner` item-history entry; when it was the last
// item the agreement still covered, the agreement's custody is over and the agreement
// is archived (its new version is on the receipt).
import { z } from "@hono/zod-openapi";
import { and, count, eq, notInArray } from "drizzle-orm";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import { Id } from "../../../platform/http/common-schemas.ts";
import { db } from "../../../platform/db/transactions.ts";
import { items } from "../../kernel/kernel.tables.ts";
import { recordItemHistory, requireItem } from "../../kernel/index.ts";
import { requireAgreement, updateAgreement } from "../../agreements/index.ts";
import { defineOperation, OP, type ReceiptEntry } from "./operation.ts";
import { applyDisposal, assertDisposable } from "./disposal.ts";

export const ExternalPropertyReturnOperation = z
  .strictObject({
    itemId: Id.openapi({ description: "An externally owned item" }),
    agreementId: Id.openapi({ description: "The active agreement the item is held under" }),
  })
  .openapi("ExternalPropertyReturnOperation");

export const externalPropertyReturn = defineOperation({
  type: "external_property_return",
  summary: "return an externally owned item to its owner; the agreement is archived when it covers no other item",
  schema: ExternalPropertyReturnOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    const item = await requireItem(ctx, op.itemId, `${OP}/itemId`);
    if (item.ownership !== "external") throw new AppError("state_conflict", `item ${item.id} is owned, not someone else's property`);
    if (item.agreementId !== op.agreementId) throw invalid(`${OP}/agreementId`, "the item is not held under this agreement");
    await requireAgreement(ctx, op.agreementId, `${OP}/agreementId`);
    await assertDisposable(ctx, item, "dispose");
  },
  async apply(ctx, op, application) {
    const item = await applyDisposal(ctx, op.itemId, "dispose", { caseId: application.caseId, reason: application.reason, method: "return_to_lessor" });
    await recordItemHistory(
      ctx,
      item.id,
      "returned_to_owner",
      { ownerPartyId: item.ownerPartyId, agreementId: op.agreementId, workflowCaseId: application.caseId },
      application.reason,
    );
    const entries: ReceiptEntry[] = [{ recordType: "item", recordId: item.id, version: item.version }];
    const [still] = await db(ctx)
      .select({ n: count() })
      .from(items)
      .where(and(eq(items.agreementId, op.agreementId), notInArray(items.lifecycle, ["disposed", "consumed"])));
    if (Number(still?.n ?? 0) === 0) {
      const agreement = await requireAgreement(ctx, op.agreementId, `${OP}/agreementId`);
      const archived = await updateAgreement(ctx, agreement.id, { expectedVersion: agreement.version, status: "archived" });
      entries.push({ recordType: "agreement", recordId: archived.id, version: archived.version });
    }
    return entries;
  },
});
