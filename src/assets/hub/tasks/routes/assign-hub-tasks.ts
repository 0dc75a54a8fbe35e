import { defineRoute } from "../../../../platform/http/define-route.ts";
import { AssignHubTasks, AssignedHubTasks } from "../tasks.schemas.ts";
import { assignHubTasks as assign } from "../tasks.service.ts";

export const assignHubTasks = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/tasks/assign",
  operationId: "assignHubTasks",
  summary: "Assign up to 100 hub tasks to one user, all or nothing",
  description: [
    "Every task must pass or nothing changes. In order of the checks:",
    "400 validation_failed: more than 100 or no ids, a repeated id (each repeat named at /body/taskIds/<i>), or an assignee who is not an active member holding",
    "`hub_assignee` (at /body/assigneeUserId; e.g. a viewer, or an operator once PUT /capabilities/hub_assignee removed it);",
    "404 not_found: ids with no task in this partner (another partner's tasks are unknown here), each named at /body/taskIds/<i>;",
    "409 state_conflict: completed or cancelled tasks, or tasks already assigned to this assignee, each named.",
    "Every failure also lists the failing ids in `failedTaskIds`.",
    "On success an open task becomes `assigned` (assigned and in_progress tasks keep their state with the new assignee), each gets version + 1 and one",
    "`assigned` history event attributed to the caller with the reason; the response lists the updated tasks in the order of taskIds.",
  ].join(" "),
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  problems: [404],
  body: AssignHubTasks,
  file: import.meta.path,
  responses: { 200: { description: "The assigned tasks", schema: AssignedHubTasks } },
  handler: async (ctx, { body }) => ({ status: 200, body: await assign(ctx, body) }),
});
