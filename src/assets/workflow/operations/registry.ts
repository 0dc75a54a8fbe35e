// Every typed operation a workflow case may carry, one module each. Adding a type
// is one module and one line here.
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
