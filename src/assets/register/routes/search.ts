import { defineRoute } from "../../../platform/http/define-route.ts";
import { SearchQuery, SearchResult } from "../register.schemas.ts";
import { search as run } from "../register.service.ts";

export const search = defineRoute({
  family: "assets",
  method: "get",
  path: "/search",
  operationId: "search",
  summary: "Ranked search across items, identifiers, locations and parties",
  description:
    "Full-text (SQLite FTS5, BM25) over item names and serial numbers, identifier values, Digital Links and EPC URIs, " +
    "location names and codes, party names and external references. Every word must match as a prefix. " +
    "At most 50 results, most relevant first, no cursor.",
  tags: ["Register"],
  auth: "session",
  capability: "ams_view",
  query: SearchQuery,
  file: import.meta.path,
  responses: { 200: { description: "Results by rank", schema: SearchResult } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query.q) }),
});
