import { defineRoute } from "../../../../platform/http/define-route.ts";
import { HubTaskList, ListHubTasksQuery } from "../tasks.schemas.ts";
import { listHubTasks as list } from "../tasks.service.ts";

export const listHubTasks = defineRoute({
  family: "assets",
  method: "get",
  path: "/hub/tasks",
  operationId: "listHubTasks",
  summary: "List hub tasks",
  description:
    "Ordered by (updatedAt, id) descending with the exact total for the filters; the list property is `tasks`. `q` is a case-insensitive prefix of the title; " +
    "`status` and `taskType` take comma-separated values. These are the filter keys of the `hub-tasks` saved-view surface.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_view",
  query: ListHubTasksQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of tasks", schema: HubTaskList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
