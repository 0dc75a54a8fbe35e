import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { Agreement, CreateAgreement } from "../agreements.schemas.ts";
import { createAgreement as run } from "../agreements.service.ts";

export const createAgreement = defineRoute({
  family: "assets",
  method: "post",
  path: "/agreements",
  operationId: "createAgreement",
  summary: "Create an agreement",
  description:
    "A lease, loan, rental, warranty or service agreement with an active party. `endsOn` before `startsOn` is 400. `terms` defaults by kind: lease, loan and rental are `external` (the assets belong to the counterparty), warranty and service `owned`.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  body: CreateAgreement,
  file: import.meta.path,
  responses: { 201: { description: "The created agreement", schema: Agreement, headers: LocationHeader } },
  handler: async (ctx, { body }) => {
    const record = await run(ctx, body);
    return { status: 201, body: record, headers: { Location: `/api/assets/agreements/${record.id}?partnerId=${ctx.partnerId}` } };
  },
});
