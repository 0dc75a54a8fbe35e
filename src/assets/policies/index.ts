// The published surface of assets/policies: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { activePolicy, depreciationDefaults, getPolicy, policyMakers, policyViolation } from "./policies.service.ts";
