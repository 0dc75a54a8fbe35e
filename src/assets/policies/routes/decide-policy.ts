import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { DecidePolicy, PolicyDetail } from "../policies.schemas.ts";
import { decidePolicy as decide } from "../policies.service.ts";

export const decidePolicy = defineRoute({
  family: "assets",
  method: "post",
  path: "/policies/{id}/decision",
  operationId: "decidePolicy",
  summary: "Approve or reject a policy in review",
  description: [
    "Recent AAL2 session required (403 step_up_required); never the author (403 maker_cannot_decide); `reason` must not be blank;",
    "`expectedRevision` must be the revision under review (409 version_conflict); the policy must be `in_review` (409 state_conflict).",
    "Approve: the policy becomes `active` and, in one transaction, the active policy of the same type becomes `superseded` and a `policy_activation`",
    "receipt is committed (`activationReceipt`); an approved permissions policy writes the role defaults it names into the capability configuration",
    "(409 state_conflict, nothing applied, if that would leave no active member holding ams_admin). Reject: the policy becomes `rejected`; the active policy is untouched.",
    "A replay with the same Idempotency-Key returns the original result.",
  ].join(" "),
  tags: ["Policies"],
  auth: "session",
  capability: "policy_approve",
  stepUp: true,
  params: IdParams,
  body: DecidePolicy,
  file: import.meta.path,
  responses: { 200: { description: "The decided policy", schema: PolicyDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await decide(ctx, params.id, body) }),
});
