import { defineRoute } from "../../../../platform/http/define-route.ts";
import { HubOverview } from "../summary.schemas.ts";
import { getHubOverview as get } from "../summary.service.ts";

export const getHubOverview = defineRoute({
  family: "assets",
  method: "get",
  path: "/hub/overview",
  operationId: "getHubOverview",
  summary: "The logistics hub dashboard",
  description:
    "The exact summary counts (as GET /hub/summary) with three bounded lists, all read in one snapshot: up to 10 dock appointments not yet closed " +
    "(scheduled, arrived, loading, unloading; earliest scheduledAt first, so late arrivals lead), up to 10 active quality holds (most recently placed first) " +
    "and up to 10 urgent tasks in state open (soonest dueAt first, tasks without one last, then oldest).",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_view",
  file: import.meta.path,
  responses: { 200: { description: "The hub overview", schema: HubOverview } },
  handler: async (ctx) => ({ status: 200, body: await get(ctx) }),
});
