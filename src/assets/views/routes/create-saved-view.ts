import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateSavedView, SavedView, SURFACE_LIST_QUERIES, SURFACES } from "../views.schemas.ts";
import { createSavedView as create } from "../views.service.ts";

// Which surfaces' values are checked follows SURFACE_LIST_QUERIES, so the text never lags the lists.
const CHECKED = SURFACES.filter((s) => SURFACE_LIST_QUERIES[s]);
const KEYS_ONLY = SURFACES.filter((s) => !SURFACE_LIST_QUERIES[s]);
const listed = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? ""));

export const createSavedView = defineRoute({
  family: "assets",
  method: "post",
  path: "/saved-views",
  operationId: "createSavedView",
  summary: "Save a view of one list surface",
  description:
    "The owner is the caller. The name is unique per user and surface, compared case-insensitively after normalisation (409 duplicate). " +
    "`query` keys must be filters of the surface's list (or `limit`). For " +
    listed(CHECKED) +
    " the values are also checked by that list's own query schema, in the form the list receives them (lists comma-joined, booleans as true/false), " +
    "so a bad value is 400 at `/body/query/<key>`." +
    (KEYS_ONLY.length > 0 ? ` The ${listed(KEYS_ONLY)} ${KEYS_ONLY.length === 1 ? "list does" : "lists do"} not exist yet: for ${KEYS_ONLY.length === 1 ? "it" : "them"} only the keys are checked.` : "") +
    " Values are stored as given (strings trimmed).",
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
