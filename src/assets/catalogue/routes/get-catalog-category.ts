import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CatalogCategoryDetail } from "../catalogue.schemas.ts";
import { getCategory as run } from "../catalogue.service.ts";

export const getCatalogCategory = defineRoute({
  family: "assets",
  method: "get",
  path: "/catalog/categories/{id}",
  operationId: "getCatalogCategory",
  summary: "Read a catalogue category with its models",
  description:
    "Beyond the spec. The category with at most its first 200 models by name, the exact `modelCount` and `modelsTruncated`; every model pages through `GET /settings/records?recordType=catalog&kind=model&parentId=<id>`.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The category", schema: CatalogCategoryDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await run(ctx, params.id) }),
});
