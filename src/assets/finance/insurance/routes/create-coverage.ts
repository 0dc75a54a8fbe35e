import { defineRoute } from "../../../../platform/http/define-route.ts";
import { Coverage, CreateCoverage } from "../insurance.schemas.ts";
import { createCoverage as create } from "../insurance.service.ts";

export const createCoverage = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/coverages",
  operationId: "createCoverage",
  summary: "Cover an asset under an approved insurance policy",
  description:
    "Links an operator-owned asset to an approved policy (409 state_conflict while pending) for a positive sum insured in the policy's currency; once per policy and asset (409 duplicate).",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: CreateCoverage,
  file: import.meta.path,
  responses: { 201: { description: "The coverage", schema: Coverage } },
  handler: async (ctx, { body }) => ({ status: 201, body: await create(ctx, body) }),
});
