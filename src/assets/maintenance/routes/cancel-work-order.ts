import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CancelWorkOrder, WorkOrder } from "../maintenance.schemas.ts";
import { cancelWorkOrder as cancel } from "../maintenance.service.ts";

export const cancelWorkOrder = defineRoute({
  family: "assets",
  method: "post",
  path: "/work-orders/{id}/cancel",
  operationId: "cancelWorkOrder",
  summary: "Cancel a work order",
  description:
    "Beyond the spec (contract §9): open or paused → cancelled (else 409 state_conflict naming the status). The item is let go: a `maintenance_completed` movement with data.cancelled = true; when no other open order holds it, an item in lifecycle `in_maintenance` is back to `active` (item history `left_maintenance`). A recurring order opens no next one.",
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CancelWorkOrder,
  file: import.meta.path,
  responses: { 200: { description: "The cancelled work order", schema: WorkOrder } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await cancel(ctx, params.id, body) }),
});
