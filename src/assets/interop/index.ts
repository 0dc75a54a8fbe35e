// The published surface of assets/interop: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { interopJobsDueAt, runQueuedInteropJobs } from "./jobs.service.ts";
