import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { CreateHubTask, HubTask } from "../tasks.schemas.ts";
import { createHubTask as create } from "../tasks.service.ts";

export const createHubTask = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/tasks",
  operationId: "createHubTask",
  summary: "Create a hub task",
  description:
    "Created `open`, unassigned, with a `created` history event. putaway and picking need `targetLocationId`. Lines are item lines `{ itemId }` " +
    "(a registered item, each at most once) or quantity lines `{ modelId?, quantity }`; unknown items, models or locations are 400 at their path.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  body: CreateHubTask,
  file: import.meta.path,
  responses: { 201: { description: "The task", schema: HubTask, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const task = await create(ctx, body);
    return { status: 201, body: task, headers: { Location: `/api/assets/hub/tasks/${task.id}?partnerId=${query.partnerId}` } };
  },
});
