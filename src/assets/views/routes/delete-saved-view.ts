import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { deleteSavedView as remove } from "../views.service.ts";

export const deleteSavedView = defineRoute({
  family: "assets",
  method: "delete",
  path: "/saved-views/{id}",
  operationId: "deleteSavedView",
  summary: "Delete one of the caller's views",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 204: { description: "Deleted" } },
  handler: async (ctx, { params }) => {
    await remove(ctx, params.id);
    return { status: 204 };
  },
});
