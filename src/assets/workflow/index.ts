// The published surface of assets/workflow: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { WorkflowCaseDetail } from "./workflow.schemas.ts";
export { caseMakers, caseVisibleTo, createCase, hasPendingCase, workflowCaseExists } from "./workflow.service.ts";
