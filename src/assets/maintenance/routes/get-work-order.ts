import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { WorkOrderDetail } from "../maintenance.schemas.ts";
import { getWorkOrder as get } from "../maintenance.service.ts";

export const getWorkOrder = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags move with the clock.
  freshness: "clock",
  path: "/work-orders/{id}",
  operationId: "getWorkOrder",
  summary: "Read a work order with its history",
  description: "`history` lists creation, starts, pauses, resumptions, reassignments (from, to, reason), completion and cancellation, newest first.",
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The work order", schema: WorkOrderDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
