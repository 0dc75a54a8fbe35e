import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Agreement } from "../agreements.schemas.ts";
import { getAgreement as run } from "../agreements.service.ts";

export const getAgreement = defineRoute({
  family: "assets",
  method: "get",
  path: "/agreements/{id}",
  operationId: "getAgreement",
  summary: "Read an agreement",
  description:
    "Beyond the spec.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The agreement", schema: Agreement } },
  handler: async (ctx, { params }) => ({ status: 200, body: await run(ctx, params.id) }),
});
