import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Item } from "../../kernel/index.ts";
import { UpdateItem } from "../items.schemas.ts";
import { updateItem as update } from "../items.service.ts";

export const updateItem = defineRoute({
  family: "assets",
  method: "patch",
  path: "/items/{id}",
  operationId: "updateItem",
  summary: "Change an item's descriptive fields",
  description:
    "`expectedVersion` is required. Lifecycle, availability, location, container, quantity, tracking and ownership are not fields here " +
    "(400): only commands change them. `null` clears an optional field; `attributes` replaces the whole object. " +
    "At least one field besides `expectedVersion`; values equal to the stored ones change nothing (same version). " +
    "A `qualityStatus` change re-derives availability.",
  tags: ["Assets"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: UpdateItem,
  file: import.meta.path,
  responses: { 200: { description: "The updated item", schema: Item } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await update(ctx, params.id, body) }),
});
