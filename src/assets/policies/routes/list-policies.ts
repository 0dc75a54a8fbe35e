import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListPoliciesQuery, PolicyList } from "../policies.schemas.ts";
import { listPolicies as list } from "../policies.service.ts";

export const listPolicies = defineRoute({
  family: "assets",
  method: "get",
  path: "/policies",
  operationId: "listPolicies",
  summary: "List policies",
  description:
    "Every policy of the partner, in any state, ordered by (updatedAt, id) descending; filter by `type` and `state` (comma-separated). Items carry the current document and the activation receipt; history and revisions are on `GET /policies/{id}`.",
  tags: ["Policies"],
  auth: "session",
  capability: "ams_view",
  query: ListPoliciesQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of policies", schema: PolicyList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
