import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { DispatchShipment, ShipmentDetail } from "../transit.schemas.ts";
import { dispatchShipment as dispatch } from "../shipments.service.ts";

export const dispatchShipment = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments/{id}/dispatch",
  operationId: "dispatchShipment",
  summary: "Dispatch a draft shipment",
  description: [
    "draft → dispatched (else 409 state_conflict naming the state). At least one item must be packed, and every packed item must still be active and available (a hold, maintenance or a started reservation since packing is 409 naming the item).",
    "Every packed item gets the `in_transit` block (availability in_transit) and a `dispatched` movement (shipment.dispatched event); its location stays the origin until received.",
    "From now on the containers are sealed: pack, repack, unpack and new containers are 409.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: DispatchShipment,
  file: import.meta.path,
  responses: { 200: { description: "The dispatched shipment", schema: ShipmentDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await dispatch(ctx, params.id, body) }),
});
