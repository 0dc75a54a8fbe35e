import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ShipmentContainer } from "../transit.schemas.ts";
import { getContainer as get } from "../containers.service.ts";

export const getContainer = defineRoute({
  family: "assets",
  method: "get",
  path: "/containers/{id}",
  operationId: "getContainer",
  summary: "Read a shipment container and what is directly in it",
  description:
    "Beyond the spec: the Location of a created container. At most 200 item ids and 200 child container ids beside exact `itemCount` and " +
    "`childContainerCount`; the rest pages through `GET /shipments/{id}/contents?containerId=` and `GET /shipments/{id}/containers?parentContainerId=`.",
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The container", schema: ShipmentContainer } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
