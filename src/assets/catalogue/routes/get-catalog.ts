import { defineRoute } from "../../../platform/http/define-route.ts";
import { Catalog, CatalogQuery } from "../catalogue.schemas.ts";
import { getCatalog as run } from "../catalogue.service.ts";

export const getCatalog = defineRoute({
  family: "assets",
  method: "get",
  path: "/catalog",
  operationId: "getCatalog",
  summary: "Read the catalogue",
  description:
    "A small bounded list (no cursor): every category by name, each with its models by name.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  query: CatalogQuery,
  file: import.meta.path,
  responses: { 200: { description: "The catalogue", schema: Catalog } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query) }),
});
