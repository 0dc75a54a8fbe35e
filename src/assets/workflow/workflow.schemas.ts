import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, RecordMeta, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { OPERATIONS, WORKFLOW_TYPES } from "./operations/registry.ts";

export const CASE_STATES = ["pending", "completed", "rejected"] as const;
export const DECISIONS = ["approve", "reject"] as const;
export const HISTORY_KINDS = ["created", "approved", "rejected", "approval_failed"] as const;
export const RECORD_TYPES = ["item", "checkout", "agreement", "work_order", "warranty_claim", "inspection_result", "shipment", "finance_value_entry"] as const;

const Reason = freeText(1000, { multiline: true });
const typeList = WORKFLOW_TYPES.join(", ");

/** A list that has a first element, as zod's unions take their members. */
function nonEmpty<T>(items: readonly T[]): [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error("the workflow registry lists no operation");
  return [first, ...rest];
}

/** One strict body per registered type, told apart by `type`. */
const proposals = OPERATIONS.map((o) =>
  z
    .strictObject({
      type: z.literal(o.type),
      operation: o.schema,
      reason: Reason.optional().openapi({ description: "Why the maker proposes it" }),
    })
    .openapi({ description: `\`${o.type}\`: ${o.summary}. Proposing needs ${o.proposeCapability}, deciding ${o.decideCapability}.` }),
);

export const CreateWorkflowCase = z
  .discriminatedUnion("type", nonEmpty(proposals), {
    error: (issue) => {
      if (issue.code !== "invalid_union") return undefined;
      return `must be one of ${typeList}`;
    },
  })
  .openapi("CreateWorkflowCase");

export const DecideWorkflowCase = z
  .strictObject({
    decision: z.enum(DECISIONS),
    reason: Reason.openapi({ description: "Why; must not be blank" }),
    expectedVersion: ExpectedVersion.openapi({ description: "The case's current version; 409 version_conflict when stale" }),
  })
  .openapi("DecideWorkflowCase");

export const CaseDecision = z
  .object({
    decision: z.enum(DECISIONS),
    reason: z.string(),
    decidedBy: z.string(),
    decidedAt: Timestamp,
  })
  .openapi("WorkflowCaseDecision");

export const ReceiptRecord = z
  .object({
    recordType: z.enum(RECORD_TYPES),
    recordId: z.string(),
    version: z.number().int().openapi({ description: "The record's version after the application" }),
  })
  .openapi("WorkflowReceiptRecord");

export const ApplicationReceipt = z
  .object({
    type: z.enum(WORKFLOW_TYPES),
    appliedAt: Timestamp,
    appliedBy: z.string(),
    operation: z.record(z.string(), z.unknown()).openapi({ description: "The operation document that was applied" }),
    records: z.array(ReceiptRecord).openapi({ description: "Every record the application changed or created, at its new version" }),
  })
  .openapi("WorkflowApplicationReceipt");

export const WorkflowCase = z
  .object({
    ...RecordMeta,
    type: z.enum(WORKFLOW_TYPES),
    state: z.enum(CASE_STATES),
    version: z.number().int(),
    operation: z.record(z.string(), z.unknown()).openapi({ description: "The typed operation document, as validated (see CreateWorkflowCase)" }),
    reason: z.string().nullable().openapi({ description: "The maker's reason" }),
    // Unions, not .nullable(): the OpenAPI generator drops null from a nullable $ref.
    decision: z.union([CaseDecision, z.null()]),
    applicationReceipt: z.union([ApplicationReceipt, z.null()]),
    canDecide: z.boolean().openapi({
      description:
        "Whether the caller may decide this case now: it is pending, the caller is not its maker and holds its type's decide capability. " +
        "For building reviewer controls; a decision still needs a recent AAL2 session (step-up is checked when deciding, not here).",
    }),
  })
  .openapi("WorkflowCase");

export const HistoryEntry = z
  .object({
    id: z.string(),
    version: z.number().int().openapi({ description: "The case's version once this entry was written" }),
    kind: z.enum(HISTORY_KINDS),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("WorkflowCaseHistoryEntry");

export const WorkflowCaseDetail = WorkflowCase.extend({
  history: z.array(HistoryEntry).openapi({ description: "Every state change and refused approval, oldest first" }),
}).openapi("WorkflowCaseDetail");

export const ListWorkflowCasesQuery = z.strictObject({
  state: csvEnum(CASE_STATES),
  type: csvEnum(WORKFLOW_TYPES),
  createdBy: freeText(255).optional().openapi({ description: "The maker's user id" }),
  ...PageQueryShape,
});
export const WorkflowCaseList = listEnvelope(WorkflowCase, "WorkflowCaseList");

export const CaseIdParams = z.strictObject({ id: Id });
