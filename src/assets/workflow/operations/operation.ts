// What every typed workflow operation is: one module per type under operations/,
// listed once in registry.ts. The case machinery (cases, decision, history,
// receipts) knows nothing about any type beyond this interface.
import type { z } from "@hono/zod-openapi";
import type { Capability } from "../../../platform/auth/capabilities.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";

/** One record an approval changed or created, at its new version. */
export interface ReceiptEntry {
  recordType: "item" | "checkout" | "agreement" | "work_order" | "warranty_claim" | "inspection_result" | "shipment" | "finance_value_entry";
  recordId: string;
  version: number;
}

/** Facts about the approval an operation may record alongside its own changes. */
export interface Application {
  caseId: string;
  /** The checker's reason for approving. */
  reason: string;
}

/** JSON Pointer of the operation document in the proposal body; validate() reports paths under it. */
export const OP = "/body/operation";

export interface WorkflowOperation<S extends z.ZodType = z.ZodType> {
  type: string;
  /** One line for the published description of the type. */
  summary: string;
  /** Strict schema of the operation document. */
  schema: S;
  proposeCapability: Capability;
  decideCapability: Capability;
  /**
   * Checks the operation against the data as it is now, changing nothing: 400 for a
   * reference that does not exist (paths under OP), 409 for a state that does not allow it.
   * Runs at proposal and again, inside the approval's transaction, before apply.
   */
  validate(ctx: RequestCtx, op: z.output<S>): Promise<void>;
  /**
   * Applies the operation through the owning domains' services, in the open
   * transaction, and returns the records it changed or created with their new versions.
   */
  apply(ctx: RequestCtx, op: z.output<S>, application: Application): Promise<ReceiptEntry[]>;
}

/**
 * Declares an operation module with its schema's types kept (the registry holds them
 * type-erased: validate and apply are methods, so a narrower operation is one).
 */
export function defineOperation<S extends z.ZodType>(op: WorkflowOperation<S>): WorkflowOperation {
  return op;
}
