// Bodies and answers of insurance: policies (maker/checker approval), coverages
// linking assets with sums insured, and claims against covered assets.
import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, RecordMeta, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";

export const INSURANCE_POLICY_STATES = ["pending", "approved"] as const;

export const CreateInsurancePolicy = z
  .strictObject({
    insurer: freeText(200),
    policyNumber: freeText(100),
    premium: Money.openapi({ description: "The premium for the term; its currency is the policy's (sums insured and claims use it)" }),
    startsOn: CalendarDate,
    endsOn: CalendarDate.openapi({ description: "Inclusive; on or after startsOn" }),
  })
  .openapi("CreateInsurancePolicy");

export const InsurancePolicy = z
  .object({
    ...RecordMeta,
    insurer: z.string(),
    policyNumber: z.string(),
    premium: MoneyOut,
    startsOn: z.string(),
    endsOn: z.string(),
    state: z.enum(INSURANCE_POLICY_STATES),
    approvedBy: z.string().nullable(),
    approvedAt: Timestamp.nullable(),
    approvalReason: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi("InsurancePolicy");

export const ApproveInsurancePolicy = z
  .strictObject({ expectedVersion: ExpectedVersion.optional(), reason: freeText(1000, { multiline: true }).optional() })
  .openapi("ApproveInsurancePolicy");

export const CreateCoverage = z
  .strictObject({
    policyId: Id.openapi({ description: "An approved insurance policy" }),
    itemId: Id.openapi({ description: "An operator-owned asset" }),
    sumInsured: Money.openapi({ description: "Positive, in the policy's currency" }),
  })
  .openapi("CreateCoverage");

export const Coverage = z
  .object({ id: z.string(), policyId: z.string(), itemId: z.string(), sumInsured: MoneyOut, createdAt: Timestamp, createdBy: z.string() })
  .openapi("InsuranceCoverage");

export const CreateInsuranceClaim = z
  .strictObject({
    itemId: Id.openapi({ description: "An asset covered by an approved policy in force on incidentDate" }),
    incidentDate: CalendarDate.openapi({ description: "Not in the future" }),
    amountClaimed: Money.openapi({ description: "Positive, in the coverage's currency, at most its sum insured" }),
    description: freeText(2000, { multiline: true }),
  })
  .openapi("CreateInsuranceClaim");

export const InsuranceClaim = z
  .object({
    id: z.string(),
    coverageId: z.string(),
    policyId: z.string(),
    itemId: z.string(),
    incidentDate: z.string(),
    amountClaimed: MoneyOut,
    description: z.string(),
    state: z.enum(["submitted"]),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("InsuranceClaim");
