import { defineRoute } from "../../../platform/http/define-route.ts";
import { ItemList, RegisterListQuery } from "../register.schemas.ts";
import { listRegister } from "../register.service.ts";

export const listLoaned = defineRoute({
  family: "assets",
  method: "get",
  path: "/loaned",
  operationId: "listLoaned",
  summary: "Page through externally owned items",
  description:
    "Items with ownership `external` (leased, loaned or rented in), ordered by (updatedAt, id) descending, with the exact total. " +
    "Same filters as /owned.",
  tags: ["Register"],
  auth: "session",
  capability: "ams_view",
  query: RegisterListQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of externally owned items", schema: ItemList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await listRegister(ctx, "external", query) }),
});
