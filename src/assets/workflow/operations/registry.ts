// Every typed operation a workflow case may carry, one module each. Adding a type
// is one module and one line here.
import type { Capability } from "../../../platform/auth/capabilities.ts";
import type { WorkflowOperation } from "./operation.ts";
import { lifecycleDisposition } from "./lifecycle-disposition.ts";
import { externalPropertyReturn } from "./external-property-return.ts";
import { overdueCustodyEscalation } from "./overdue-custody-escalation.ts";
import { transitExceptionResolution } from "./transit-exception-resolution.ts";
import { inspectionCalibration } from "./inspection-calibration.ts";
import { warrantyClaim } from "./warranty-claim.ts";
import { bulkChange } from "./bulk-change.ts";
import { financeValueEntry } from "./finance-value-entry.ts";

export const OPERATIONS: readonly WorkflowOperation[] = [
  lifecycleDisposition,
  externalPropertyReturn,
  overdueCustodyEscalation,
  transitExceptionResolution,
  inspectionCalibration,
  warrantyClaim,
  bulkChange,
  financeValueEntry,
];

const BY_TYPE = new Map(OPERATIONS.map((o) => [o.type, o]));

export function operationOf(type: string): WorkflowOperation | undefined {
  return BY_TYPE.get(type);
}

export const WORKFLOW_TYPES = OPERATIONS.map((o) => o.type) as [string, ...string[]];

const distinct = (caps: Capability[]) => [...new Set(caps)] as [Capability, ...Capability[]];

/** Every type's propose capability: holding none of them, a member cannot propose any case. */
export const PROPOSE_CAPABILITIES = distinct(OPERATIONS.map((o) => o.proposeCapability));

/** Every type's decide capability: holding none of them, a member cannot decide any case. */
export const DECIDE_CAPABILITIES = distinct(OPERATIONS.map((o) => o.decideCapability));
