import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateWorkflowCase, WorkflowCaseDetail } from "../workflow.schemas.ts";
import { createCase } from "../workflow.service.ts";
import { PROPOSE_CAPABILITIES, WORKFLOW_TYPES } from "../operations/registry.ts";

export const createWorkflowCase = defineRoute({
  family: "assets",
  method: "post",
  path: "/workflow-cases",
  operationId: "createWorkflowCase",
  summary: "Propose a typed operation for independent review",
  description: [
    `\`type\` is one of ${WORKFLOW_TYPES.join(", ")}; \`operation\` is that type's strict document.`,
    `The caller needs one of the types' propose capabilities (${PROPOSE_CAPABILITIES.join(", ")}; 403 capability_denied before the body is read)`,
    "and then the type's own (ams_operate; finance_propose for finance_value_entry; 403 capability_denied otherwise).",
    "The operation is validated against the data now (400 for a record it names that does not exist, 409 state_conflict for a state that does not allow it) and stored as a `pending` case locked to its creator; nothing is applied.",
  ].join(" "),
  tags: ["Workflow cases"],
  auth: "session",
  // Any type's propose capability passes the route; which one applies depends on the type in the body, which the service checks.
  capability: PROPOSE_CAPABILITIES,
  body: CreateWorkflowCase,
  file: import.meta.path,
  responses: { 201: { description: "The pending case with its history", schema: WorkflowCaseDetail, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const created = await createCase(ctx, body);
    return { status: 201, body: created, headers: { Location: `/api/assets/workflow-cases/${created.id}?partnerId=${query.partnerId}` } };
  },
});
