import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { HandOffShipment, ShipmentDetail } from "../transit.schemas.ts";
import { handOffShipment as handOff } from "../shipments.service.ts";

export const handOffShipment = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments/{id}/handoff",
  operationId: "handOffShipment",
  summary: "Record a carrier custody change, or resume after an exception",
  description: [
    "dispatched, in_transit or exception → in_transit (else 409 state_conflict naming the state). `carrier` becomes the shipment's carrier and `readPointId` (an active location) its last read point.",
    "From `exception` this is the resume (contract §9 exception → in_transit): the open exception is closed and the history records `resumed`.",
    "Every item still travelling gets a `handed_off` movement at the read point (shipment.handed_off event; `data.resumed` tells a resume).",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: HandOffShipment,
  file: import.meta.path,
  responses: { 200: { description: "The shipment, in transit", schema: ShipmentDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await handOff(ctx, params.id, body) }),
});
