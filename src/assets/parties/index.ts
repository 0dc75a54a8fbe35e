// The published surface of assets/parties: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { PARTY_KINDS } from "./parties.schemas.ts";
export { activePartiesNamed, activePartyExists, createParty, partyExists, partyIdsMatching, partyText, requireParty } from "./parties.service.ts";
export type { PartyRow } from "./parties.service.ts";
