import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateSavedView, SavedView } from "../views.schemas.ts";
import { createSavedView as create } from "../views.service.ts";

export const createSavedView = defineRoute({
  family: "assets",
  method: "post",
  path: "/saved-views",
  operationId: "createSavedView",
  summary: "Save a view of one list surface",
  description:
    "The owner is the caller. The name is unique per user and surface, compared case-insensitively after normalisation (409 duplicate). " +
    "`query` keys must be filters of the surface's list (or `limit`). For owned, loaned, checkouts and movements the values are also " +
    "checked by that list's own query schema, in the form the list receives them (lists comma-joined, booleans as true/false), " +
    "so a bad value is 400 at `/body/query/<key>`. The shipments, audits, work-orders, hub-tasks and alerts lists do not exist yet: " +
    "for them only the keys are checked. Values are stored as given (strings trimmed).",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  body: CreateSavedView,
  file: import.meta.path,
  responses: { 201: { description: "The created view", schema: SavedView, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const view = await create(ctx, body);
    return { status: 201, body: view, headers: { Location: `/api/assets/saved-views/${view.id}?partnerId=${query.partnerId}` } };
  },
});
