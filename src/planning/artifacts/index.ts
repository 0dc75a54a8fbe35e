// The published surface of planning/artifacts: what other domains (and the jobs) may import from it
// (only this file; the rest of the folder is internal, test/contract/layout.test.ts).
export { artifactScanDueAt, scanPendingArtifacts } from "./artifacts.service.ts";
