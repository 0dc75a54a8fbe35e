import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListShipmentsQuery, ShipmentList } from "../transit.schemas.ts";
import { listShipments as list } from "../shipments.service.ts";

export const listShipments = defineRoute({
  family: "assets",
  method: "get",
  path: "/shipments",
  operationId: "listShipments",
  summary: "List shipments",
  description:
    "Ordered by (updatedAt, id) descending; any change to a shipment, its containers or contents moves it to the front. `q` is a case-insensitive prefix of the reference, the carrier or the tracking reference; `status` a comma-separated list of states. These are the filter keys of the `shipments` saved-view surface.",
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  query: ListShipmentsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of shipments", schema: ShipmentList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
