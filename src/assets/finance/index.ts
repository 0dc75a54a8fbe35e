// The published surface of assets/finance: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { ValueEntry, ValueEntryProposal } from "./value-entries/entries.schemas.ts";
export { applyProposal, toEntryDto, validateProposal, valueEntryExists } from "./value-entries/entries.service.ts";
