import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { SubmitPolicy, PolicyDetail } from "../policies.schemas.ts";
import { submitPolicy as submit } from "../policies.service.ts";

export const submitPolicy = defineRoute({
  family: "assets",
  method: "post",
  path: "/policies/{id}/submit",
  operationId: "submitPolicy",
  summary: "Submit a draft policy for review",
  description:
    "Only the author (403 capability_denied otherwise), naming the exact current revision (409 version_conflict otherwise); the policy must be a `draft` (409 state_conflict). It becomes `in_review`; the submission is recorded in the history.",
  tags: ["Policies"],
  auth: "session",
  capability: "policy_author",
  params: IdParams,
  body: SubmitPolicy,
  file: import.meta.path,
  responses: { 200: { description: "The policy in review", schema: PolicyDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await submit(ctx, params.id, body) }),
});
