import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { CancelHubTask, HubTask } from "../tasks.schemas.ts";
import { cancelHubTask as cancel } from "../tasks.service.ts";

export const cancelHubTask = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/tasks/{id}/cancel",
  operationId: "cancelHubTask",
  summary: "Cancel a hub task",
  description:
    "Open, assigned and in_progress tasks become `cancelled` (contract §9); completed or cancelled ones are 409 state_conflict naming the state. Nothing moves. " +
    "A cancelled replenishment task lets its rule raise a new one at its next evaluation.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CancelHubTask,
  file: import.meta.path,
  responses: { 200: { description: "The cancelled task", schema: HubTask } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await cancel(ctx, params.id, body) }),
});
