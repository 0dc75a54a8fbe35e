// The published surface of assets/identity: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { Identifier, toIdentifierDto } from "./identity.dto.ts";
export type { IdentifierRow } from "./identity.dto.ts";
export { identifiersOfItemQuery, resolveScan } from "./identity.service.ts";
