import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ListShipmentEventsQuery, ShipmentEventList } from "../transit.schemas.ts";
import { listShipmentEvents as list } from "../shipments.service.ts";

export const listShipmentEvents = defineRoute({
  family: "assets",
  method: "get",
  path: "/shipments/{id}/events",
  operationId: "listShipmentEvents",
  summary: "A shipment's history, paged",
  description: [
    "Beyond the spec: the shipment's and its containers' history (who, when, what, why), newest first ((recordedAt, id) descending), exact `total`,",
    "and a signed cursor bound to this shipment and the filters. The shipment's detail and command answers embed only the latest 200 lines.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  query: ListShipmentEventsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the shipment's history", schema: ShipmentEventList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.id, query) }),
});
