import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ShipmentContainer, UnpackContainer } from "../transit.schemas.ts";
import { unpackContainer as unpack } from "../containers.service.ts";

export const unpackContainer = defineRoute({
  family: "assets",
  method: "post",
  path: "/containers/{id}/unpack",
  operationId: "unpackContainer",
  summary: "Take items or child containers out of a container",
  description: [
    "Only while the shipment is draft, from a packed container (409 otherwise). Without itemIds and containerIds everything comes out; listed ones must be directly in it (400).",
    "Items taken out leave the shipment: the `packed` block goes and each gets an `unpacked` movement (container.unpacked event). Child containers taken out stay in the shipment at the top level.",
    "Emptied, the container becomes `unpacked` and takes nothing more; otherwise it stays packed. `expectedVersion` is this container's.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: UnpackContainer,
  file: import.meta.path,
  responses: { 200: { description: "The container", schema: ShipmentContainer } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await unpack(ctx, params.id, body) }),
});
