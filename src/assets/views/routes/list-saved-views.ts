import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListSavedViewsQuery, SavedViewList } from "../views.schemas.ts";
import { listSavedViews as list } from "../views.service.ts";

export const listSavedViews = defineRoute({
  family: "assets",
  method: "get",
  path: "/saved-views",
  operationId: "listSavedViews",
  summary: "List the caller's saved views",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  query: ListSavedViewsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the caller's views", schema: SavedViewList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
