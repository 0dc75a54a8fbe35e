import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CatalogModel } from "../catalogue.schemas.ts";
import { getModel as run } from "../catalogue.service.ts";

export const getCatalogModel = defineRoute({
  family: "assets",
  method: "get",
  path: "/catalog/models/{id}",
  operationId: "getCatalogModel",
  summary: "Read a catalogue model",
  description:
    "Beyond the spec.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The model", schema: CatalogModel } },
  handler: async (ctx, { params }) => ({ status: 200, body: await run(ctx, params.id) }),
});
