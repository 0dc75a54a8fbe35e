import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateParty, Party } from "../parties.schemas.ts";
import { createParty as run } from "../parties.service.ts";

export const createParty = defineRoute({
  family: "assets",
  method: "post",
  path: "/parties",
  operationId: "createParty",
  summary: "Create a party",
  description:
    "A person or an organisation: a holder, a counterparty of agreements or the owner of external assets.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  body: CreateParty,
  file: import.meta.path,
  responses: { 201: { description: "The created party", schema: Party, headers: LocationHeader } },
  handler: async (ctx, { body }) => {
    const record = await run(ctx, body);
    return { status: 201, body: record, headers: { Location: `/api/assets/parties/${record.id}?partnerId=${ctx.partnerId}` } };
  },
});
