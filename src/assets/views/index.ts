// The published surface of assets/views: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { draftsPurgeDueAt, purgeExpiredDrafts } from "./views.service.ts";
