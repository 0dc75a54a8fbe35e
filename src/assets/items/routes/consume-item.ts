import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Item } from "../../kernel/index.ts";
import { ConsumeItem } from "../items.schemas.ts";
import { consumeItem as consume } from "../items.service.ts";

export const consumeItem = defineRoute({
  family: "assets",
  method: "post",
  path: "/items/{id}/consume",
  operationId: "consumeItem",
  summary: "Consume part or all of a consumable's quantity",
  description:
    "Only for active, quantity-tracked items (else 409). More than on hand is 409 `state_conflict`. Records a `consumed` movement " +
    "with the quantity; reaching 0 makes the lifecycle `consumed`.",
  tags: ["Assets"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ConsumeItem,
  file: import.meta.path,
  responses: { 200: { description: "The item with its remaining quantity", schema: Item } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await consume(ctx, params.id, body) }),
});
