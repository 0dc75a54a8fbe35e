import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { PackContainer, ShipmentContainer } from "../transit.schemas.ts";
import { packContainer as pack } from "../containers.service.ts";

export const packContainer = defineRoute({
  family: "assets",
  method: "post",
  path: "/containers/{id}/pack",
  operationId: "packContainer",
  summary: "Put items and child containers into a container",
  description: [
    "Only while the shipment is draft, into an open or packed container (409 otherwise); the container becomes `packed`.",
    "Each item must be active and available (not checked out, reserved, in transit, on hold or in maintenance), packed in no other container (an item is in one container at a time),",
    "neither inside nor holding another item, and at the shipment's origin or a location inside it — else 409 state_conflict naming the item.",
    "Each gets the `packed` block (source = this container; availability unchanged, but it can neither move nor be checked out until unpacked or received)",
    "and a `packed` movement (EPCIS aggregation: `data.parentContainerId`, `data.containerCode`; container.packed event).",
    "`containerIds` are top-level containers of the same shipment (400 otherwise; a nested one is moved with repack); putting a container into itself or one inside it is 409 cycle_detected.",
    "`expectedVersion` is this container's.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: PackContainer,
  file: import.meta.path,
  responses: { 200: { description: "The container", schema: ShipmentContainer } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await pack(ctx, params.id, body) }),
});
