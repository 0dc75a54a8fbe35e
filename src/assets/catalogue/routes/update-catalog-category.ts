import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CatalogCategory, UpdateCatalogCategory } from "../catalogue.schemas.ts";
import { updateCategory as run } from "../catalogue.service.ts";

export const updateCatalogCategory = defineRoute({
  family: "assets",
  method: "patch",
  path: "/catalog/categories/{id}",
  operationId: "updateCatalogCategory",
  summary: "Change a catalogue category",
  description:
    "Beyond the spec (the issue asks for PATCH on all master data). `expectedVersion` is required; a category with active models cannot be archived (409 state_conflict).",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  body: UpdateCatalogCategory,
  file: import.meta.path,
  responses: { 200: { description: "The updated category", schema: CatalogCategory } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await run(ctx, params.id, body) }),
});
