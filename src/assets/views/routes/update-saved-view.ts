import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { UpdateSavedView, SavedView } from "../views.schemas.ts";
import { updateSavedView as update } from "../views.service.ts";

export const updateSavedView = defineRoute({
  family: "assets",
  method: "patch",
  path: "/saved-views/{id}",
  operationId: "updateSavedView",
  summary: "Rename a view or change its query",
  description:
    "Beyond the spec: how a view's version increases. `expectedVersion` is required; each update adds 1. " +
    "A new `query` is checked as on create (keys, and values by the list's query schema where the list exists).",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  body: UpdateSavedView,
  file: import.meta.path,
  responses: { 200: { description: "The updated view", schema: SavedView } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await update(ctx, params.id, body) }),
});
