// inspection_calibration: records an inspection or calibration result with its
// certificate reference and next due date; a failure opens a repair work order
// through the maintenance service (which holds the item in maintenance).
import { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import { CalendarDate, Id, freeText } from "../../../platform/http/common-schemas.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { writer } from "../../../platform/db/transactions.ts";
import { loadItem, recordItemHistory, requireItem } from "../../kernel/index.ts";
import { createWorkOrder } from "../../maintenance/index.ts";
import { inspectionResults } from "../workflow.tables.ts";
import { defineOperation, OP, type ReceiptEntry } from "./operation.ts";

export const InspectionCalibrationOperation = z
  .strictObject({
    itemId: Id,
    kind: z.enum(["inspection", "calibration"]),
    result: z.enum(["pass", "fail"]).openapi({ description: "fail opens a repair work order on approval" }),
    performedOn: CalendarDate.openapi({ description: "Not after today" }),
    certificateReference: freeText(200).optional(),
    nextDueOn: CalendarDate.openapi({ description: "After performedOn" }),
    notes: freeText(4000, { multiline: true }).optional(),
  })
  .openapi("InspectionCalibrationOperation");

/** Items that are no longer in service are not inspected. */
const OUT_OF_SERVICE = new Set(["retired", "disposed", "consumed"]);

export const inspectionCalibration = defineOperation({
  type: "inspection_calibration",
  summary: "record an inspection or calibration result, certificate reference and next due date; a failure opens a repair work order",
  schema: InspectionCalibrationOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    if (op.nextDueOn <= op.performedOn) throw invalid(`${OP}/nextDueOn`, "must be after performedOn");
    if (op.performedOn > ctx.nowIso.slice(0, 10)) throw invalid(`${OP}/performedOn`, "must not be in the future");
    const item = await requireItem(ctx, op.itemId, `${OP}/itemId`);
    if (OUT_OF_SERVICE.has(item.lifecycle)) throw new AppError("state_conflict", `item ${item.id} is ${item.lifecycle}`);
  },
  async apply(ctx, op, application) {
    const entries: ReceiptEntry[] = [];
    let workOrderId: string | null = null;
    if (op.result === "fail") {
      const order = await createWorkOrder(ctx, {
        itemId: op.itemId,
        kind: "repair",
        title: `Failed ${op.kind} on ${op.performedOn}`,
        description: op.notes,
      });
      workOrderId = order.id;
      entries.push({ recordType: "work_order", recordId: order.id, version: order.version });
    }
    const row = {
      ...newRecordMeta(ctx),
      itemId: op.itemId,
      caseId: application.caseId,
      kind: op.kind,
      result: op.result,
      performedOn: op.performedOn,
      certificateReference: op.certificateReference ?? null,
      nextDueOn: op.nextDueOn,
      notes: op.notes ?? null,
      workOrderId,
    };
    await writer(ctx).insert(inspectionResults).values(row);
    await recordItemHistory(
      ctx,
      op.itemId,
      op.kind === "calibration" ? "calibrated" : "inspected",
      { inspectionResultId: row.id, result: op.result, certificateReference: row.certificateReference, nextDueOn: op.nextDueOn, workOrderId, workflowCaseId: application.caseId },
      application.reason,
    );
    entries.unshift({ recordType: "inspection_result", recordId: row.id, version: row.version });
    // A failure's work order holds the item in maintenance: the item has a new version too.
    if (workOrderId) entries.push({ recordType: "item", recordId: op.itemId, version: (await loadItem(ctx, op.itemId)).version });
    return entries;
  },
});
