import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ListShipmentContainersQuery, ShipmentContainerList } from "../transit.schemas.ts";
import { listShipmentContainers as list } from "../shipments.service.ts";

export const listShipmentContainers = defineRoute({
  family: "assets",
  method: "get",
  path: "/shipments/{id}/containers",
  operationId: "listShipmentContainers",
  summary: "A shipment's containers, paged",
  description: [
    "Beyond the spec: every container of the shipment, newest change first ((updatedAt, id) descending), exact `total`, and a signed cursor",
    "bound to this shipment and the filters. Each carries `itemCount` and `childContainerCount` instead of id lists (page those with",
    "`GET /shipments/{id}/contents?containerId=` and `?parentContainerId=` here). The shipment's detail embeds only the first 200 containers of its tree.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  query: ListShipmentContainersQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the shipment's containers", schema: ShipmentContainerList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.id, query) }),
});
