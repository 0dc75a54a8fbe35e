// The published surface of planning/meetings: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { MeetingParams } from "./meetings.schemas.ts";
export { occurrencesOf, resolveOccurrence } from "./meetings.service.ts";
export type { OccurrenceRow } from "./meetings.service.ts";
