import { defineRoute } from "../../../../platform/http/define-route.ts";
import { CreateInsuranceClaim, InsuranceClaim } from "../insurance.schemas.ts";
import { createInsuranceClaim as create } from "../insurance.service.ts";

export const createInsuranceClaim = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/insurance/claims",
  operationId: "createInsuranceClaim",
  summary: "File an insurance claim for a covered asset",
  description:
    "A claim for a loss of an asset on `incidentDate` (not in the future). The asset must be covered under an approved policy in force on that date (409 state_conflict otherwise); with several, the coverage with the largest sum insured takes it. The amount is positive, in the coverage's currency and at most its sum insured (400).",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  body: CreateInsuranceClaim,
  file: import.meta.path,
  responses: { 201: { description: "The submitted claim", schema: InsuranceClaim } },
  handler: async (ctx, { body }) => ({ status: 201, body: await create(ctx, body) }),
});
