import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ListShipmentContentsQuery, ShipmentContentList } from "../transit.schemas.ts";
import { listShipmentContents as list } from "../shipments.service.ts";

export const listShipmentContents = defineRoute({
  family: "assets",
  method: "get",
  path: "/shipments/{id}/contents",
  operationId: "listShipmentContents",
  summary: "A shipment's contents, paged",
  description: [
    "Beyond the spec: every item packed in the shipment (and not unpacked before dispatch) with its container and state, newest packed first",
    "((packedAt, id) descending), exact `total`, and a signed cursor bound to this shipment and the filters. The shipment's detail and command",
    "answers embed only the first 200 contents; this is the rest. `containerId` narrows to what is (or travelled) directly in one container.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  query: ListShipmentContentsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the shipment's contents", schema: ShipmentContentList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.id, query) }),
});
