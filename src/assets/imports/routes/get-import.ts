import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ImportBatch } from "../imports.schemas.ts";
import { getImport as get } from "../imports.service.ts";

export const getImport = defineRoute({
  family: "assets",
  method: "get",
  path: "/imports/{id}",
  operationId: "getImport",
  summary: "Read an import batch with its rows, errors, warnings and references",
  tags: ["Imports"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The batch", schema: ImportBatch } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
