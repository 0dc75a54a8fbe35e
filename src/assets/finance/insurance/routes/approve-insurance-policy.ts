import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { ApproveInsurancePolicy, InsurancePolicy } from "../insurance.schemas.ts";
import { approveInsurancePolicy as approve } from "../insurance.service.ts";

export const approveInsurancePolicy = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/insurance/policies/{id}/approve",
  operationId: "approveInsurancePolicy",
  summary: "Approve an insurance policy",
  description:
    "finance_approve; never the policy's creator (403 maker_cannot_decide). Only a `pending` policy is approved (409 state_conflict naming its state). Records approver, reason and server time; from then on assets can be covered under it.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: ApproveInsurancePolicy,
  file: import.meta.path,
  responses: { 200: { description: "The approved policy", schema: InsurancePolicy } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await approve(ctx, params.id, body) }),
});
