import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateShipment, Shipment } from "../transit.schemas.ts";
import { createShipment as create } from "../shipments.service.ts";

export const createShipment = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments",
  operationId: "createShipment",
  summary: "Start a shipment (draft)",
  description:
    "Origin and destination are active locations, not the same one (400 otherwise). The shipment starts `draft`: add containers and pack them, then dispatch.",
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  body: CreateShipment,
  file: import.meta.path,
  responses: { 201: { description: "The shipment", schema: Shipment, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const shipment = await create(ctx, body);
    return { status: 201, body: shipment, headers: { Location: `/api/assets/shipments/${shipment.id}?partnerId=${query.partnerId}` } };
  },
});
