import { defineRoute } from "../../../platform/http/define-route.ts";
import { ItemList, RegisterListQuery } from "../register.schemas.ts";
import { listRegister } from "../register.service.ts";

export const listOwned = defineRoute({
  family: "assets",
  method: "get",
  path: "/owned",
  operationId: "listOwned",
  summary: "Page through operator-owned items",
  description:
    "Items with ownership `owned`, ordered by (updatedAt, id) descending, with the exact total for the filters. " +
    "Enumerated filters take comma-separated values and are echoed as arrays; locationId includes the location's subtree.",
  tags: ["Register"],
  auth: "session",
  capability: "ams_view",
  query: RegisterListQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of owned items", schema: ItemList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await listRegister(ctx, "owned", query) }),
});
