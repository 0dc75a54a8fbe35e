import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { LocationDetail } from "../locations.schemas.ts";
import { getLocation as run } from "../locations.service.ts";

export const getLocation = defineRoute({
  family: "assets",
  method: "get",
  path: "/locations/{id}",
  operationId: "getLocation",
  summary: "Read a location with its ancestors",
  description:
    "Beyond the spec: the location and `path`, its ancestors root first.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The location", schema: LocationDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await run(ctx, params.id) }),
});
