import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListWorkflowCasesQuery, WorkflowCaseList } from "../workflow.schemas.ts";
import { listCases } from "../workflow.service.ts";

export const listWorkflowCases = defineRoute({
  family: "assets",
  method: "get",
  // Which cases a caller may see follows their capabilities, and time-limited grants expire with the clock.
  freshness: "clock",
  path: "/workflow-cases",
  operationId: "listWorkflowCases",
  summary: "List the workflow cases the caller made or may decide",
  description:
    "Only cases the caller created, and cases of the types whose decide capability the caller holds (ams_review for every type accepted today). Ordered by (updatedAt, id) descending; no history (read a case for it).",
  tags: ["Workflow cases"],
  auth: "session",
  capability: "ams_view",
  query: ListWorkflowCasesQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of workflow cases", schema: WorkflowCaseList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await listCases(ctx, query) }),
});
