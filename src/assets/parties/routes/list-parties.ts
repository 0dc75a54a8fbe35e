import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListPartiesQuery, PartyList } from "../parties.schemas.ts";
import { listParties as run } from "../parties.service.ts";

export const listParties = defineRoute({
  family: "assets",
  method: "get",
  path: "/parties",
  operationId: "listParties",
  summary: "Page through parties",
  description:
    "People and organisations (counterparties, external owners), ordered by (updatedAt, id) descending with the exact total. `q` searches name and external reference (FTS5).",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  query: ListPartiesQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of parties", schema: PartyList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query) }),
});
