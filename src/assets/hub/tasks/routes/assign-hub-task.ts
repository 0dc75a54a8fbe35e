import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { AssignHubTask, HubTask } from "../tasks.schemas.ts";
import { assignHubTask as assign } from "../tasks.service.ts";

export const assignHubTask = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/tasks/{id}/assign",
  operationId: "assignHubTask",
  summary: "Assign one hub task",
  description:
    "The rules of POST /hub/tasks/assign for one task: an assignee without `hub_assignee` (or not an active member) is 400 at /body/assigneeUserId; " +
    "a completed or cancelled task, or one already assigned to this assignee, is 409 state_conflict naming its state. An open task becomes `assigned`; " +
    "assigned and in_progress tasks keep their state with the new assignee. One `assigned` history event with the reason.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: AssignHubTask,
  file: import.meta.path,
  responses: { 200: { description: "The task", schema: HubTask } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await assign(ctx, params.id, body) }),
});
