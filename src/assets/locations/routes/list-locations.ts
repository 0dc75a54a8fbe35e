import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListLocationsQuery, LocationList } from "../locations.schemas.ts";
import { listLocations as run } from "../locations.service.ts";

export const listLocations = defineRoute({
  family: "assets",
  method: "get",
  path: "/locations",
  operationId: "listLocations",
  summary: "Page through locations",
  description:
    "Ordered by (updatedAt, id) descending with the exact total for the filters. `q` searches name and code (FTS5); `parentId` lists direct children.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  query: ListLocationsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of locations", schema: LocationList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query) }),
});
