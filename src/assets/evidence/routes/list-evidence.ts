import { defineRoute } from "../../../platform/http/define-route.ts";
import { EvidenceList, ListEvidenceQuery } from "../evidence.schemas.ts";
import { listEvidence as list } from "../evidence.service.ts";

export const listEvidence = defineRoute({
  family: "assets",
  method: "get",
  path: "/evidence",
  operationId: "listEvidence",
  summary: "List evidence records",
  description:
    "Ordered by (createdAt, id) descending. Without ams_admin, restricted evidence is left out (as if it did not exist). Metadata only: never a storage location.",
  tags: ["Evidence"],
  auth: "session",
  capability: "ams_view",
  query: ListEvidenceQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of evidence records", schema: EvidenceList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
