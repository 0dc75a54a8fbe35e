// Scan states (contract §9): pending → clean | quarantined (a finding or a reviewer)
// and pending → failed (a scanner error). Nothing leaves clean, quarantined or failed.

export const SCAN_STATES = ["pending", "clean", "quarantined", "failed"] as const;
export type ScanState = (typeof SCAN_STATES)[number];

/** Who may see a stored file: each domain says which capability `restricted` needs. */
export const CLASSIFICATIONS = ["internal", "private", "restricted"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

const MOVES: Record<ScanState, readonly ScanState[]> = {
  pending: ["clean", "quarantined", "failed"],
  clean: [],
  quarantined: [],
  failed: [],
};

/** Whether a file in scan state `from` may move to `to`. */
export function mayMoveScanState(from: ScanState, to: ScanState): boolean {
  return MOVES[from].includes(to);
}
