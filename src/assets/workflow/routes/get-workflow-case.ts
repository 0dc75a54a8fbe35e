import { defineRoute } from "../../../platform/http/define-route.ts";
import { CaseIdParams, WorkflowCaseDetail } from "../workflow.schemas.ts";
import { getCase } from "../workflow.service.ts";

export const getWorkflowCase = defineRoute({
  family: "assets",
  method: "get",
  freshness: "clock",
  path: "/workflow-cases/{id}",
  operationId: "getWorkflowCase",
  summary: "Read a workflow case with its history",
  description:
    "404 unless the caller created the case or holds its type's decide capability. `history` lists creation, the decision and every refused approval, oldest first, each with its actor and server time.",
  tags: ["Workflow cases"],
  auth: "session",
  capability: "ams_view",
  params: CaseIdParams,
  file: import.meta.path,
  responses: { 200: { description: "The case", schema: WorkflowCaseDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await getCase(ctx, params.id) }),
});
