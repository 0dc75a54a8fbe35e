import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ReassignWorkOrder, WorkOrder } from "../maintenance.schemas.ts";
import { reassignWorkOrder as reassign } from "../maintenance.service.ts";

export const reassignWorkOrder = defineRoute({
  family: "assets",
  method: "post",
  path: "/work-orders/{id}/reassign",
  operationId: "reassignWorkOrder",
  summary: "Assign a work order to someone else",
  description: [
    "The new assignee must be an active member holding ams_operate: unknown or ineligible is 400 at /body/assigneeUserId.",
    "Only open, in_progress or paused orders (409 state_conflict naming the status); the current assignee again is 409.",
    "The history records who reassigned it, from whom, to whom and why.",
  ].join(" "),
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ReassignWorkOrder,
  file: import.meta.path,
  responses: { 200: { description: "The work order", schema: WorkOrder } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await reassign(ctx, params.id, body) }),
});
