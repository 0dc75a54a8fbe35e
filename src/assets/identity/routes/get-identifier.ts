import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Identifier } from "../identity.dto.ts";
import { getIdentifier as get } from "../identity.service.ts";

export const getIdentifier = defineRoute({
  family: "assets",
  method: "get",
  path: "/identifiers/{id}",
  operationId: "getIdentifier",
  summary: "Read one identifier",
  description: "Beyond the spec: the Location of an identifier issued by POST /identifiers/issue. Retired identifiers are still readable here.",
  tags: ["Identity"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The identifier", schema: Identifier } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
