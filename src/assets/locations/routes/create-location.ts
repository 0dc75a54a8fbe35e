import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateLocation, Location } from "../locations.schemas.ts";
import { createLocation as run } from "../locations.service.ts";

export const createLocation = defineRoute({
  family: "assets",
  method: "post",
  path: "/locations",
  operationId: "createLocation",
  summary: "Create a location",
  description:
    "Locations form a tree through `parentId` (sites contain buildings contain rooms or bins); any kind may sit under any kind. An unknown or archived parent is 400 at `/body/parentId`; a code already in use is 409 duplicate.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  body: CreateLocation,
  file: import.meta.path,
  responses: { 201: { description: "The created location", schema: Location, headers: LocationHeader } },
  handler: async (ctx, { body }) => {
    const record = await run(ctx, body);
    return { status: 201, body: record, headers: { Location: `/api/assets/locations/${record.id}?partnerId=${ctx.partnerId}` } };
  },
});
