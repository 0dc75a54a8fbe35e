import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Party, UpdateParty } from "../parties.schemas.ts";
import { updateParty as run } from "../parties.service.ts";

export const updateParty = defineRoute({
  family: "assets",
  method: "patch",
  path: "/parties/{id}",
  operationId: "updateParty",
  summary: "Change a party's descriptive fields or status",
  description:
    "`expectedVersion` is required (409 version_conflict when stale). `status: archived` keeps existing references (items, agreements) but refuses new ones.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  body: UpdateParty,
  file: import.meta.path,
  responses: { 200: { description: "The updated party", schema: Party } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await run(ctx, params.id, body) }),
});
