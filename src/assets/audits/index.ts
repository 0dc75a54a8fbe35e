// The published surface of assets/audits: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { ListAuditsQuery } from "./audits.schemas.ts";
export { auditResultCounters, auditResultExists } from "./audits.service.ts";
