// warranty_claim: raises a claim for an item against the warranty agreement that
// covers it, while that agreement is in force (active, startsOn ≤ today ≤ endsOn).
import { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import { Id, freeText } from "../../../platform/http/common-schemas.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { writer } from "../../../platform/db/transactions.ts";
import { recordItemHistory, requireItem } from "../../kernel/index.ts";
import { requireAgreement } from "../../agreements/index.ts";
import { warrantyClaims } from "../workflow.tables.ts";
import { defineOperation, OP } from "./operation.ts";

export const WarrantyClaimOperation = z
  .strictObject({
    itemId: Id,
    agreementId: Id.openapi({ description: "The warranty agreement covering the item (the item's agreementId), in force" }),
    description: freeText(4000, { multiline: true }).openapi({ description: "The fault claimed" }),
    reference: freeText(100).optional().openapi({ description: "The warrantor's claim or RMA number, if known" }),
  })
  .openapi("WarrantyClaimOperation");

const GONE = new Set(["disposed", "consumed"]);

export const warrantyClaim = defineOperation({
  type: "warranty_claim",
  summary: "raise a warranty claim for an item against the warranty agreement in force that covers it",
  schema: WarrantyClaimOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    const item = await requireItem(ctx, op.itemId, `${OP}/itemId`);
    const agreement = await requireAgreement(ctx, op.agreementId, `${OP}/agreementId`);
    if (agreement.kind !== "warranty") throw invalid(`${OP}/agreementId`, `a ${agreement.kind} agreement, not a warranty`);
    if (item.agreementId !== agreement.id) throw invalid(`${OP}/agreementId`, "the agreement does not cover this item");
    if (GONE.has(item.lifecycle)) throw new AppError("state_conflict", `item ${item.id} is ${item.lifecycle}`);
    const today = ctx.nowIso.slice(0, 10);
    if (agreement.startsOn > today || (agreement.endsOn !== null && agreement.endsOn < today)) {
      throw new AppError("state_conflict", `the warranty is not in force today (${agreement.startsOn} to ${agreement.endsOn ?? "open-ended"})`);
    }
  },
  async apply(ctx, op, application) {
    const row = {
      ...newRecordMeta(ctx),
      itemId: op.itemId,
      agreementId: op.agreementId,
      caseId: application.caseId,
      description: op.description,
      reference: op.reference ?? null,
      state: "submitted" as const,
    };
    await writer(ctx).insert(warrantyClaims).values(row);
    await recordItemHistory(ctx, op.itemId, "warranty_claimed", { warrantyClaimId: row.id, agreementId: op.agreementId, workflowCaseId: application.caseId }, application.reason);
    return [{ recordType: "warranty_claim", recordId: row.id, version: row.version }];
  },
});
