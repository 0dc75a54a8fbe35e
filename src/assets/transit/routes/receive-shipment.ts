import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ReceiveShipment, ShipmentDetail } from "../transit.schemas.ts";
import { receiveShipment as receive } from "../shipments.service.ts";

export const receiveShipment = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments/{id}/receive",
  operationId: "receiveShipment",
  summary: "Receive all or part of a shipment",
  description: [
    "From in_transit or exception (a receipt from exception resumes it); anything else is 409 state_conflict naming the state.",
    "Each listed item of the shipment still travelling is put at `locationId` (default the destination), takes `condition` if given, loses its in_transit and packed blocks (availability back to what else holds it)",
    "and gets a `received` movement (shipment.received event) then an `unpacked` one (container.unpacked). A listed item already received is 409.",
    "Discrepancies per item: a listed id the shipment does not carry is `unexpected` (recorded, nothing else changes; not an error); `damaged: true` is received with a `damaged` discrepancy;",
    "every item still travelling after the receipt has an open `missing` discrepancy (one per item, resolved when a later receipt brings it).",
    "Full or partial: the receipt is full when no item of the shipment is left travelling — the shipment becomes `received` and its emptied containers `unpacked`;",
    "otherwise it is partial and the shipment is `in_transit`, its remaining items still in transit at their origin location; receiving the rest later completes it.",
    "Replaying the same Idempotency-Key returns the first answer and receives nothing twice.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ReceiveShipment,
  file: import.meta.path,
  responses: { 200: { description: "The shipment after the receipt", schema: ShipmentDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await receive(ctx, params.id, body) }),
});
