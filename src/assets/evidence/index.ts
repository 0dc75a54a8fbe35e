// The published surface of assets/evidence: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { evidenceScanDueAt, evidenceUploader, scanPendingEvidence } from "./evidence.service.ts";
export { TARGET_TYPES } from "./evidence.states.ts";
