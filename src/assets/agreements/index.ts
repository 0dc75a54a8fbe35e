// The published surface of assets/agreements: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { AGREEMENT_KINDS } from "./agreements.schemas.ts";
export { agreementText, requireAgreement, updateAgreement } from "./agreements.service.ts";
export type { AgreementRow } from "./agreements.service.ts";
