// The four policy documents (strict: an unknown property is a 400) and the
// request and response schemas of the policy routes.
import { z } from "@hono/zod-openapi";
import { Id, RecordMeta, Timestamp, freeText, orNull } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { CAPABILITIES, ROLES, type Capability } from "../../platform/auth/capabilities.ts";
import { IDENTIFIER_SCHEMES } from "../kernel/index.ts";
import { POLICY_EVENT_KINDS, POLICY_STATES, POLICY_TYPES } from "./policies.states.ts";

export { POLICY_STATES, POLICY_TYPES };

const Revision = z.number().int().min(1).max(2_147_483_647);

/**
 * A list whose entries must be distinct. Repeats are refused by the service (400 at
 * the repeated entry, see checkDocument), not by the schema: the published shape
 * (`uniqueItems`) says so, and a generated body is never refused for its shape alone.
 */
function distinct<T extends z.ZodType>(item: T, max: number) {
  return z.array(item).max(max).openapi({ uniqueItems: true });
}

// ---------------------------------------------------------------- documents

export const IdentityPolicyDocument = z
  .strictObject({
    allowedSchemes: distinct(z.enum(IDENTIFIER_SCHEMES), IDENTIFIER_SCHEMES.length)
      .min(1)
      .openapi({ description: "Identifier schemes that may be issued; issuing any other is 409 policy_violation" }),
    gs1CompanyPrefixes: distinct(z.string().regex(/^[0-9]{6,12}$/, "must be 6 to 12 digits"), 200)
      .default([])
      .openapi({
        description:
          "GS1 Company Prefixes an issued GS1 key (gs1_giai, gs1_sgtin, and GS1 EPCs under rfid_epc) must begin with; empty: any prefix",
      }),
  })
  .openapi("IdentityPolicyDocument");

export const CustodyPolicyDocument = z
  .strictObject({
    maxCheckoutDays: z.number().int().min(1).max(3650).openapi({
      description: "Longest a checkout may run, from its checkout time to its dueAt; a checkout or extension beyond it is 409 policy_violation",
    }),
    acknowledgementRequired: z.boolean().openapi({
      description: "A checkout held by a user must be acknowledged by that user before it may be extended or transferred (409 policy_violation)",
    }),
    overdueEscalationDays: z.number().int().min(0).max(365).openapi({
      description: "Days past dueAt after which an overdue checkout is escalated (read by overdue-custody escalation)",
    }),
  })
  .openapi("CustodyPolicyDocument");

export const DEPRECIATION_METHODS = ["straight_line", "declining_balance", "double_declining_balance", "sum_of_years_digits"] as const;
export const DEPRECIATION_CONVENTIONS = ["full_month", "mid_month", "half_year", "actual_days"] as const;

const DepreciationRule = {
  method: z.enum(DEPRECIATION_METHODS),
  usefulLifeMonths: z.number().int().min(1).max(1200),
  convention: z.enum(DEPRECIATION_CONVENTIONS),
};

export const DepreciationPolicyDocument = z
  .strictObject({
    default: z.strictObject(DepreciationRule).openapi({ description: "For assets of a category without its own rule" }),
    categories: z
      .array(z.strictObject({ categoryId: Id, ...DepreciationRule }))
      .max(500)
      .default([])
      .openapi({ description: "Per catalogue category: each an active category, named once (400 otherwise)" }),
  })
  .openapi("DepreciationPolicyDocument");

/** Operations whose independent review ("four eyes") the permissions policy decides: the workflow-case types. */
export const FOUR_EYES_OPERATIONS = [
  "lifecycle_disposition",
  "external_property_return",
  "overdue_custody_escalation",
  "transit_exception_resolution",
  "inspection_calibration",
  "warranty_claim",
  "bulk_change",
  "finance_value_entry",
] as const;
export type FourEyesOperation = (typeof FOUR_EYES_OPERATIONS)[number];

const RoleList = distinct(z.enum(ROLES), ROLES.length);
export const PermissionsPolicyDocument = z
  .strictObject({
    roleDefaults: z
      .strictObject(Object.fromEntries(CAPABILITIES.map((c) => [c, RoleList.optional()])) as Record<Capability, z.ZodOptional<typeof RoleList>>)
      .openapi({
        description:
          "Capability → the roles that hold it by default. On activation each named key's role defaults are written to the capability configuration (keys not named keep theirs)",
      }),
    fourEyes: distinct(z.enum(FOUR_EYES_OPERATIONS), FOUR_EYES_OPERATIONS.length).openapi({
      description: "Operation types that need a second person's approval",
    }),
  })
  .openapi("PermissionsPolicyDocument");

export const POLICY_DOCUMENTS = {
  identity: IdentityPolicyDocument,
  custody: CustodyPolicyDocument,
  depreciation: DepreciationPolicyDocument,
  permissions: PermissionsPolicyDocument,
} as const;
export type PolicyType = keyof typeof POLICY_DOCUMENTS;
export type PolicyDocumentOf<T extends PolicyType> = z.output<(typeof POLICY_DOCUMENTS)[T]>;

/** Any of the four documents (which one applies depends on the policy's type). */
export const PolicyDocument = z
  .union([IdentityPolicyDocument, CustodyPolicyDocument, DepreciationPolicyDocument, PermissionsPolicyDocument])
  .openapi("PolicyDocument");

// ---------------------------------------------------------------- requests

const Reason = freeText(2000, { multiline: true });

export const CreatePolicy = z
  .discriminatedUnion("type", [
    z.strictObject({ type: z.literal("identity"), document: IdentityPolicyDocument }),
    z.strictObject({ type: z.literal("custody"), document: CustodyPolicyDocument }),
    z.strictObject({ type: z.literal("depreciation"), document: DepreciationPolicyDocument }),
    z.strictObject({ type: z.literal("permissions"), document: PermissionsPolicyDocument }),
  ])
  .openapi("CreatePolicy");

export const RevisePolicy = z
  .strictObject({
    expectedRevision: Revision.openapi({ description: "The draft's current revision; 409 version_conflict when stale" }),
    document: PolicyDocument.openapi({ description: "The whole new document, of the policy's type" }),
  })
  .openapi("RevisePolicy");

export const SubmitPolicy = z
  .strictObject({ revision: Revision.openapi({ description: "The exact revision submitted for review; 409 version_conflict when it is not the current one" }) })
  .openapi("SubmitPolicy");

export const DecidePolicy = z
  .strictObject({
    decision: z.enum(["approve", "reject"]),
    reason: Reason,
    expectedRevision: Revision.openapi({ description: "The revision the reviewer decides; 409 version_conflict when it is not the current one" }),
  })
  .openapi("DecidePolicy");

export const ListPoliciesQuery = z.strictObject({
  type: csvEnum(POLICY_TYPES),
  state: csvEnum(POLICY_STATES),
  ...PageQueryShape,
});

// ---------------------------------------------------------------- responses

export const PolicyActivationReceipt = z
  .object({
    id: z.string(),
    kind: z.literal("policy_activation"),
    policyId: z.string(),
    policyType: z.enum(POLICY_TYPES),
    revision: z.number().int(),
    documentSha256: z.string().openapi({ description: "SHA-256 (hex) of the activated document's canonical JSON" }),
    supersededPolicyId: z.string().nullable().openapi({ description: "The policy of the same type this activation superseded, if any" }),
    approvedBy: z.string(),
    approvedAt: Timestamp,
    reason: z.string(),
  })
  .openapi("PolicyActivationReceipt");

export const PolicyEvent = z
  .object({
    id: z.string(),
    kind: z.enum(POLICY_EVENT_KINDS),
    revision: z.number().int(),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("PolicyEvent");

export const PolicyRevision = z
  .object({ revision: z.number().int(), document: PolicyDocument, createdAt: Timestamp, createdBy: z.string() })
  .openapi("PolicyRevision");

export const Policy = z
  .object({
    ...RecordMeta,
    type: z.enum(POLICY_TYPES),
    state: z.enum(POLICY_STATES),
    revision: z.number().int().openapi({ description: "The current document's revision" }),
    document: PolicyDocument,
    submittedAt: Timestamp.nullable(),
    submittedBy: z.string().nullable(),
    decidedAt: Timestamp.nullable(),
    decidedBy: z.string().nullable(),
    decisionReason: z.string().nullable(),
    supersededAt: Timestamp.nullable(),
    supersededByPolicyId: z.string().nullable(),
    activationReceipt: orNull(PolicyActivationReceipt),
    version: z.number().int().openapi({ description: "+ 1 per change of the record (revision, submission, decision, supersession)" }),
    canDecide: z.boolean().openapi({
      description:
        "Whether the caller may decide this policy now: it is `in_review`, the caller is not its author and holds policy_approve. " +
        "For building reviewer controls; a decision still needs a recent AAL2 session (step-up is checked when deciding, not here).",
    }),
  })
  .openapi("Policy");

export const PolicyDetail = Policy.extend({
  history: z.array(PolicyEvent).openapi({ description: "Every state change and revision, newest first" }),
  revisions: z.array(PolicyRevision).openapi({ description: "Every revision's document, newest first" }),
}).openapi("PolicyDetail");

export const PolicyList = listEnvelope(Policy, "PolicyList");
