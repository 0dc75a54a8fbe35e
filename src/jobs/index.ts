// The published surface of jobs: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { startScheduler } from "./scheduler.ts";
export type { Scheduler } from "./scheduler.ts";
