import { defineRoute } from "../../../platform/http/define-route.ts";
import { DraftParams, DraftQuery, Draft } from "../views.schemas.ts";
import { getDraft as get } from "../views.service.ts";

export const getDraft = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/drafts/{workflowKey}",
  operationId: "getDraft",
  summary: "Load the caller's private draft for a workflow on a route",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  params: DraftParams,
  query: DraftQuery,
  file: import.meta.path,
  responses: { 200: { description: "The draft", schema: Draft } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await get(ctx, params.workflowKey, query.route) }),
});
