import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams, LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateContainer, ShipmentContainer } from "../transit.schemas.ts";
import { createContainer as create } from "../containers.service.ts";

export const createContainer = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments/{id}/containers",
  operationId: "createContainer",
  summary: "Add a box, pallet or case to a draft shipment",
  description: [
    "Only while the shipment is draft (409 state_conflict naming its state). The container starts `open`.",
    "With `parentContainerId` it is nested in that container, which must belong to the same shipment (400) and not be unpacked (409); the parent becomes `packed`.",
    "A `code` is unique in the partner (409 duplicate); an 18-digit code is an SSCC and its check digit must hold (400). `expectedVersion` is the shipment's.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CreateContainer,
  file: import.meta.path,
  responses: { 201: { description: "The container", schema: ShipmentContainer, headers: LocationHeader } },
  handler: async (ctx, { params, body, query }) => {
    const container = await create(ctx, params.id, body);
    return { status: 201, body: container, headers: { Location: `/api/assets/containers/${container.id}?partnerId=${query.partnerId}` } };
  },
});
