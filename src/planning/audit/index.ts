// The published surface of planning/audit: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { auditTrailQuery, recordAudit } from "./audit.service.ts";
