import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { RepackContainer, ShipmentContainer } from "../transit.schemas.ts";
import { repackContainer as repack } from "../containers.service.ts";

export const repackContainer = defineRoute({
  family: "assets",
  method: "post",
  path: "/containers/{id}/repack",
  operationId: "repackContainer",
  summary: "Move contents to another container, or move this container",
  description: [
    "Only while the shipment is draft. With `toContainerId`: the listed items and child containers (default everything) move from this packed container into that one",
    "(same shipment, not unpacked; it becomes packed); each moved item gets an `unpacked` then a `packed` movement (data.repackedTo / repackedFrom). This container keeps its state, even emptied (a repack is recorded, not an unpacking).",
    "With `parentContainerId`: this container (with its contents) moves into that container, or to the top level with null. Putting a container into itself or one inside it is 409 cycle_detected.",
    "`expectedVersion` is this container's.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: RepackContainer,
  file: import.meta.path,
  responses: { 200: { description: "This container", schema: ShipmentContainer } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await repack(ctx, params.id, body) }),
});
