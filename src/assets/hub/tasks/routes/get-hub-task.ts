import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { HubTaskDetail } from "../tasks.schemas.ts";
import { getHubTask as get } from "../tasks.service.ts";

export const getHubTask = defineRoute({
  family: "assets",
  method: "get",
  path: "/hub/tasks/{id}",
  operationId: "getHubTask",
  summary: "Read a hub task with its history",
  description: "Beyond the spec: the task (the Location of POST /hub/tasks) and `events`, its actor-attributed history newest first.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The task", schema: HubTaskDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
