import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { StartWorkOrder, WorkOrder } from "../maintenance.schemas.ts";
import { startWorkOrder as start } from "../maintenance.service.ts";

export const startWorkOrder = defineRoute({
  family: "assets",
  method: "post",
  path: "/work-orders/{id}/start",
  operationId: "startWorkOrder",
  summary: "Start or resume work",
  description:
    "Beyond the spec: open → in_progress (started) or paused → in_progress (resumed); any other status is 409 state_conflict naming it. An order opened by a recurrence takes hold of its item here (maintenance_started movement). " +
    "An `active` item moves to lifecycle `in_maintenance` (contract §9; item history `entered_maintenance`); an item in another lifecycle keeps it.",
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: StartWorkOrder,
  file: import.meta.path,
  responses: { 200: { description: "The work order, in progress", schema: WorkOrder } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await start(ctx, params.id, body) }),
});
