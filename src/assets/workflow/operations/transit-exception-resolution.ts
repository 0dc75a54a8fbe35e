// transit_exception_resolution: for a shipment in `exception`, resume it with a carrier
// handoff, re-route it to another destination (then resume), or accept the loss of the
// items the exception names (they leave the shipment and are disposed of; the shipment
// goes on with the rest, or ends received when nothing travels any more).
import { z } from "@hono/zod-openapi";
import { AppError } from "../../../platform/errors/app-error.ts";
import { Id, freeText } from "../../../platform/http/common-schemas.ts";
import { loadItem, recordItemHistory } from "../../kernel/index.ts";
import { assertLifecycleMove } from "../../kernel/index.ts";
import { requireLocation } from "../../locations/index.ts";
import {
  acceptShipmentLoss,
  assertNewDestination,
  getShipment,
  handOffShipment,
  lostInException,
  requireShipmentInException,
  rerouteShipment,
} from "../../transit/index.ts";
import { defineOperation, OP, type ReceiptEntry } from "./operation.ts";
import { applyDisposal } from "./disposal.ts";

const Carrier = freeText(120).openapi({ description: "The carrier taking custody" });
const ReadPoint = Id.openapi({ description: "Where the carrier takes custody (an active location)" });
const Tracking = freeText(120).optional().openapi({ description: "The carrier's tracking reference" });

export const TransitExceptionResolutionOperation = z
  .discriminatedUnion("resolution", [
    z
      .strictObject({ resolution: z.literal("resume"), shipmentId: Id, carrier: Carrier, readPointId: ReadPoint, trackingReference: Tracking })
      .openapi("TransitResumeOperation"),
    z
      .strictObject({
        resolution: z.literal("reroute"),
        shipmentId: Id,
        destinationLocationId: Id.openapi({ description: "The new destination: an active location other than the origin and the current destination" }),
        carrier: Carrier,
        readPointId: ReadPoint,
        trackingReference: Tracking,
      })
      .openapi("TransitRerouteOperation"),
    z.strictObject({ resolution: z.literal("accept_loss"), shipmentId: Id }).openapi("TransitAcceptLossOperation"),
  ])
  .openapi("TransitExceptionResolutionOperation");

export const transitExceptionResolution = defineOperation({
  type: "transit_exception_resolution",
  summary: "for a shipment in exception: resume it, re-route it, or accept the loss of the items the exception names",
  schema: TransitExceptionResolutionOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    const shipment = await requireShipmentInException(ctx, op.shipmentId, `${OP}/shipmentId`);
    if (op.resolution === "reroute") await assertNewDestination(ctx, shipment, op.destinationLocationId, `${OP}/destinationLocationId`);
    if (op.resolution !== "accept_loss") {
      await requireLocation(ctx, op.readPointId, `${OP}/readPointId`);
      return;
    }
    const lost = await lostInException(ctx, shipment);
    if (lost.length === 0) throw new AppError("state_conflict", "no item the exception names is still travelling");
    for (const itemId of lost) {
      const item = await loadItem(ctx, itemId);
      if (item.lifecycle !== "active" && item.lifecycle !== "retired") {
        throw new AppError("state_conflict", `item ${item.id} is ${item.lifecycle} and cannot be written off`, { extras: { itemId: item.id } });
      }
      assertLifecycleMove(item.lifecycle, item.lifecycle === "active" ? "retired" : "disposed");
    }
  },
  async apply(ctx, op, application) {
    const entries: ReceiptEntry[] = [];
    if (op.resolution === "accept_loss") {
      const lost = await acceptShipmentLoss(ctx, op.shipmentId, { reason: application.reason, workflowCaseId: application.caseId });
      for (const itemId of lost) {
        await recordItemHistory(ctx, itemId, "lost_in_transit", { shipmentId: op.shipmentId, workflowCaseId: application.caseId }, application.reason);
        const item = await applyDisposal(ctx, itemId, "dispose", { caseId: application.caseId, reason: application.reason, method: "other" });
        entries.push({ recordType: "item", recordId: item.id, version: item.version });
      }
    } else {
      if (op.resolution === "reroute") {
        await rerouteShipment(ctx, op.shipmentId, { destinationLocationId: op.destinationLocationId, reason: application.reason, workflowCaseId: application.caseId });
      }
      await handOffShipment(ctx, op.shipmentId, { carrier: op.carrier, readPointId: op.readPointId, trackingReference: op.trackingReference, note: application.reason });
    }
    const shipment = await getShipment(ctx, op.shipmentId);
    entries.unshift({ recordType: "shipment", recordId: shipment.id, version: shipment.version });
    return entries;
  },
});
