// Scan states (contract §9): pending → clean | quarantined (a finding or a reviewer)
// and pending → failed (a scanner error). Every other move is 409 state_conflict.
import { AppError } from "../../platform/errors/app-error.ts";

export const SCAN_STATES = ["pending", "clean", "quarantined", "failed"] as const;
export type ScanState = (typeof SCAN_STATES)[number];

export const CLASSIFICATIONS = ["internal", "private", "restricted"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/** What evidence can be bound to, each checked through its owning domain's service. */
export const TARGET_TYPES = ["item", "checkout", "shipment", "audit_result", "work_order", "workflow_case", "value_entry"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

const MOVES: Record<ScanState, readonly ScanState[]> = {
  pending: ["clean", "quarantined", "failed"],
  clean: [],
  quarantined: [],
  failed: [],
};

export function assertScanMove(from: ScanState, to: ScanState): void {
  if (!MOVES[from].includes(to)) {
    throw new AppError("state_conflict", `evidence is ${from}; it cannot become ${to}`);
  }
}
