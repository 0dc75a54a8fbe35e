// The published surface of assets/capabilities: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { applyRoleDefaults } from "./capabilities.service.ts";
