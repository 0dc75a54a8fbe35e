import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { SavedView } from "../views.schemas.ts";
import { getSavedView as get } from "../views.service.ts";

export const getSavedView = defineRoute({
  family: "assets",
  method: "get",
  path: "/saved-views/{id}",
  operationId: "getSavedView",
  summary: "Read one of the caller's views",
  description:
    "Beyond the spec: the Location of a view created by POST /saved-views. Only the caller's own views; another user's view is 404 like an unknown one.",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The view", schema: SavedView } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
