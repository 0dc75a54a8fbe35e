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
    "The categories as a list (contract §7): newest change first ((updatedAt, id) descending), `limit` 1–200 (default 50), an exact `total`, " +
    "and a signed `nextCursor` bound to the filters (400 invalid_cursor otherwise); `items` stays the list's key. Each category embeds at most " +
    "its first 200 models by name with the exact `modelCount` and `modelsTruncated`; every model of a category pages through " +
    "`GET /settings/records?recordType=catalog&kind=model&parentId=<category id>`. `status` applies to categories and embedded models alike.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  query: CatalogQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the catalogue", schema: Catalog } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query) }),
});
