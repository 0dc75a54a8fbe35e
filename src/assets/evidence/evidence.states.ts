// Evidence's own vocabulary; scan states and classifications are the stored-file
// module's (platform/stored-files/states.ts).
import { AppError } from "../../platform/errors/app-error.ts";
import type { ScanState } from "../../platform/stored-files/states.ts";

/** What evidence can be bound to, each checked through its owning domain's service. */
export const TARGET_TYPES = ["item", "checkout", "shipment", "audit_result", "work_order", "workflow_case", "value_entry"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** The rows of evidence_events: who uploaded, downloaded, reviewed or scanned a file, and when. */
export const EVIDENCE_EVENT_KINDS = ["upload", "download", "review", "scan"] as const;

/** The refusals of a move the scan states do not allow (409 state_conflict naming the state). */
export const scanMoveRefused = (from: ScanState, to: ScanState) => new AppError("state_conflict", `evidence is ${from}; it cannot become ${to}`);
