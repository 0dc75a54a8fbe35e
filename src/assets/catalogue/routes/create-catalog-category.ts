import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CatalogCategory, CreateCatalogCategory } from "../catalogue.schemas.ts";
import { createCategory as run } from "../catalogue.service.ts";

export const createCatalogCategory = defineRoute({
  family: "assets",
  method: "post",
  path: "/catalog/categories",
  operationId: "createCatalogCategory",
  summary: "Create a catalogue category",
  description:
    "A code already in use is 409 duplicate.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  body: CreateCatalogCategory,
  file: import.meta.path,
  responses: { 201: { description: "The created category", schema: CatalogCategory, headers: LocationHeader } },
  handler: async (ctx, { body }) => {
    const record = await run(ctx, body);
    return { status: 201, body: record, headers: { Location: `/api/assets/catalog/categories/${record.id}?partnerId=${ctx.partnerId}` } };
  },
});
