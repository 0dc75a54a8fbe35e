import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CatalogModel, CreateCatalogModel } from "../catalogue.schemas.ts";
import { createModel as run } from "../catalogue.service.ts";

export const createCatalogModel = defineRoute({
  family: "assets",
  method: "post",
  path: "/catalog/models",
  operationId: "createCatalogModel",
  summary: "Create a catalogue model",
  description:
    "The category must exist and be active (else 400 at `/body/categoryId`).",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  body: CreateCatalogModel,
  file: import.meta.path,
  responses: { 201: { description: "The created model", schema: CatalogModel, headers: LocationHeader } },
  handler: async (ctx, { body }) => {
    const record = await run(ctx, body);
    return { status: 201, body: record, headers: { Location: `/api/assets/catalog/models/${record.id}?partnerId=${ctx.partnerId}` } };
  },
});
