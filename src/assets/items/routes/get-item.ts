import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ItemDetail } from "../items.schemas.ts";
import { getItemDetail } from "../items.service.ts";

export const getItem = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/items/{id}",
  operationId: "getItem",
  summary: "Item detail: identifiers, custody, location path, latest movements",
  description:
    "The item with its identifiers (every state), its open checkout and upcoming reservations, its location's path from the root, " +
    "the last 10 movements and last 20 history entries (newest first) and the ids of items packed in it. Read in one snapshot.",
  tags: ["Assets"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The item detail", schema: ItemDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await getItemDetail(ctx, params.id) }),
});
