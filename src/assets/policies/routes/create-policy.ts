import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreatePolicy, PolicyDetail } from "../policies.schemas.ts";
import { createPolicy as create } from "../policies.service.ts";

export const createPolicy = defineRoute({
  family: "assets",
  method: "post",
  path: "/policies",
  operationId: "createPolicy",
  summary: "Draft a policy",
  description: [
    "Creates a `draft` at revision 1 of a strict typed document: `identity`, `custody`, `depreciation` or `permissions` (400 at `/body/document/…` when invalid;",
    "a depreciation rule must name an active catalogue category). The caller is the author and the only one who may revise (`PATCH /policies/{id}`) and submit it.",
    "The creator and the server time are recorded in the history. Nothing is enforced until the policy is approved.",
  ].join(" "),
  tags: ["Policies"],
  auth: "session",
  capability: "policy_author",
  body: CreatePolicy,
  file: import.meta.path,
  responses: { 201: { description: "The draft with its history and revisions", schema: PolicyDetail, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const policy = await create(ctx, body);
    return { status: 201, body: policy, headers: { Location: `/api/assets/policies/${policy.id}?partnerId=${query.partnerId}` } };
  },
});
