// The published surface of planning/change-sets: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { reviewQueueCountQuery, reviewQueueQuery } from "./change-sets.queries.ts";
