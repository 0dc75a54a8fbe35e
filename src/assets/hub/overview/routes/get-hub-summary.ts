import { defineRoute } from "../../../../platform/http/define-route.ts";
import { HubSummary } from "../summary.schemas.ts";
import { getHubSummary as get } from "../summary.service.ts";

export const getHubSummary = defineRoute({
  family: "assets",
  method: "get",
  path: "/hub/summary",
  operationId: "getHubSummary",
  summary: "Exact hub task counts",
  description:
    "Counts of contract §8, exact, from the database in one read snapshot (never from a page). The per-type counts (receiving … continuity) and openTasks " +
    "count open tasks: states open, assigned and in_progress (completed and cancelled tasks are not counted). unassigned counts tasks in state open " +
    "(an open task has no assignee; assigning makes it assigned); urgentUnassigned the urgent ones among them.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_view",
  file: import.meta.path,
  responses: { 200: { description: "The counts", schema: HubSummary } },
  handler: async (ctx) => ({ status: 200, body: await get(ctx) }),
});
