// The published surface of planning/canonical: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { CANONICAL_TYPES, CHANGES_OF, TimeZone } from "./canonical.schemas.ts";
export { applyCanonicalChanges, eventExists, eventTimesQuery, findCanonical } from "./canonical.service.ts";
