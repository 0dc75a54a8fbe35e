import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Item } from "../../kernel/index.ts";
import { MoveItem } from "../items.schemas.ts";
import { moveItem as move } from "../items.service.ts";

export const moveItem = defineRoute({
  family: "assets",
  method: "post",
  path: "/items/{id}/move",
  operationId: "moveItem",
  summary: "Move an item to a location or into a container",
  description:
    "Exactly one of `toLocationId` or `toContainerId` (another item). Into a container, the item takes the container's location; " +
    "to a location, it leaves any container. Packing an item into itself or into something it contains is 409 `cycle_detected`. " +
    "Moving a container carries its contents (recursively), each with its own `moved` movement. Disposed or consumed items and " +
    "items checked out or in transit do not move here (409 `state_conflict`); neither does a move to where the item already is.",
  tags: ["Assets"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: MoveItem,
  file: import.meta.path,
  responses: { 200: { description: "The moved item", schema: Item } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await move(ctx, params.id, body) }),
});
