import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Agreement, UpdateAgreement } from "../agreements.schemas.ts";
import { updateAgreement as run } from "../agreements.service.ts";

export const updateAgreement = defineRoute({
  family: "assets",
  method: "patch",
  path: "/agreements/{id}",
  operationId: "updateAgreement",
  summary: "Change an agreement's terms, dates, counterparty or status",
  description:
    "`expectedVersion` is required (409 version_conflict when stale). The resulting dates must keep `endsOn` on or after `startsOn` (400).",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  body: UpdateAgreement,
  file: import.meta.path,
  responses: { 200: { description: "The updated agreement", schema: Agreement } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await run(ctx, params.id, body) }),
});
