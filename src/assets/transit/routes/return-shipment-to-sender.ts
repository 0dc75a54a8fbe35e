import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ReturnShipmentToSender, ShipmentDetail } from "../transit.schemas.ts";
import { returnShipmentToSender as giveBack } from "../shipments.service.ts";

export const returnShipmentToSender = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments/{id}/return-to-sender",
  operationId: "returnShipmentToSender",
  summary: "Return a shipment in exception to its origin",
  description: [
    "exception → returned_to_sender (else 409 state_conflict naming the state). Every item still travelling is put back at the origin location, loses its in_transit and packed blocks",
    "and gets a `returned_to_sender` movement (toLocationId = the origin; chronology only, no domain event) and an `unpacked` one; items already received stay where they are.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ReturnShipmentToSender,
  file: import.meta.path,
  responses: { 200: { description: "The returned shipment", schema: ShipmentDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await giveBack(ctx, params.id, body) }),
});
