import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ShipmentDetail } from "../transit.schemas.ts";
import { getShipment as get } from "../shipments.service.ts";

export const getShipment = defineRoute({
  family: "assets",
  method: "get",
  path: "/shipments/{id}",
  operationId: "getShipment",
  summary: "Read a shipment with its containers, contents, discrepancies and history",
  description:
    "Beyond the spec: the Location of a created shipment. One read snapshot: the container tree, contents and history agree. " +
    "Every nested list is bounded at 200 rows with its exact count and a `…Truncated` flag (the shipment commands answer the same shape); " +
    "the rest pages through `GET /shipments/{id}/containers`, `/contents`, `/discrepancies` and `/events`.",
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The shipment", schema: ShipmentDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
