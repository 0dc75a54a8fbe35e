import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { PauseWorkOrder, WorkOrder } from "../maintenance.schemas.ts";
import { pauseWorkOrder as pause } from "../maintenance.service.ts";

export const pauseWorkOrder = defineRoute({
  family: "assets",
  method: "post",
  path: "/work-orders/{id}/pause",
  operationId: "pauseWorkOrder",
  summary: "Pause work",
  description: "in_progress → paused (else 409 state_conflict naming the status); the reason is required and kept in the history. The item stays in maintenance.",
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: PauseWorkOrder,
  file: import.meta.path,
  responses: { 200: { description: "The work order, paused", schema: WorkOrder } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await pause(ctx, params.id, body) }),
});
