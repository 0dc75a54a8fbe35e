import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Location, UpdateLocation } from "../locations.schemas.ts";
import { updateLocation as run } from "../locations.service.ts";

export const updateLocation = defineRoute({
  family: "assets",
  method: "patch",
  path: "/locations/{id}",
  operationId: "updateLocation",
  summary: "Change a location's descriptive fields, parent or status",
  description:
    "`expectedVersion` is required (409 version_conflict when stale); each change adds 1 to `version`, a PATCH that changes nothing returns the record as it is. Moving under the location itself or anything below it is 409 cycle_detected. `status` archives or unarchives (beyond the spec): a location that still contains active locations or items (other than disposed or consumed) cannot be archived, and one under an archived parent cannot be unarchived (409 state_conflict). Archived locations cannot be referenced by new records.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  body: UpdateLocation,
  file: import.meta.path,
  responses: { 200: { description: "The updated location", schema: Location } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await run(ctx, params.id, body) }),
});
