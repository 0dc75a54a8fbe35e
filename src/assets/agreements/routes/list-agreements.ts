import { defineRoute } from "../../../platform/http/define-route.ts";
import { AgreementList, ListAgreementsQuery } from "../agreements.schemas.ts";
import { listAgreements as run } from "../agreements.service.ts";

export const listAgreements = defineRoute({
  family: "assets",
  method: "get",
  path: "/agreements",
  operationId: "listAgreements",
  summary: "Page through agreements",
  description:
    "Ordered by (updatedAt, id) descending with the exact total for the filters.",
  tags: ["Master data"],
  auth: "session",
  capability: "ams_view",
  query: ListAgreementsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of agreements", schema: AgreementList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query) }),
});
