import { defineRoute } from "../../../../platform/http/define-route.ts";
import { CreateInsurancePolicy, InsurancePolicy } from "../insurance.schemas.ts";
import { createInsurancePolicy as create } from "../insurance.service.ts";

export const createInsurancePolicy = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/insurance/policies",
  operationId: "createInsurancePolicy",
  summary: "Record an insurance policy (pending approval)",
  description:
    "Records a policy of an insurer (insurer, policy number — unique per insurer, 409 duplicate — premium, inclusive term). It is created `pending` and covers nothing until a member other than its creator approves it.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: CreateInsurancePolicy,
  file: import.meta.path,
  responses: { 201: { description: "The pending policy", schema: InsurancePolicy } },
  handler: async (ctx, { body }) => ({ status: 201, body: await create(ctx, body) }),
});
