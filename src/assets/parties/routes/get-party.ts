import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Party } from "../parties.schemas.ts";
import { getParty as run } from "../parties.service.ts";

export const getParty = defineRoute({
  family: "assets",
  method: "get",
  path: "/parties/{id}",
  operationId: "getParty",
  summary: "Read a party",
  description:
    "Beyond the spec.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The party", schema: Party } },
  handler: async (ctx, { params }) => ({ status: 200, body: await run(ctx, params.id) }),
});
