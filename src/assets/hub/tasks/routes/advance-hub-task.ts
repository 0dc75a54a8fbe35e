import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { AdvanceHubTask, HubTask } from "../tasks.schemas.ts";
import { advanceHubTask as advance } from "../tasks.service.ts";

export const advanceHubTask = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/tasks/{id}/advance",
  operationId: "advanceHubTask",
  summary: "Move a hub task to its next state",
  description:
    "assigned → in_progress → completed (contract §9). An open task must be assigned first; open, completed and cancelled tasks are 409 state_conflict " +
    "naming the current state. Any holder of ams_operate may advance a task, not only its assignee; the history records who did. Completing a putaway or " +
    "picking task moves each item of its item lines to targetLocationId (out of any container, its contents following) with one `moved` movement " +
    "(data.taskId) each, in the same transaction; an item already there is left as it is, and an item that is disposed, consumed, checked out, in transit " +
    "or packed in a shipment refuses the completion (409 naming it).",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: AdvanceHubTask,
  file: import.meta.path,
  responses: { 200: { description: "The task in its new state", schema: HubTask } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await advance(ctx, params.id, body) }),
});
