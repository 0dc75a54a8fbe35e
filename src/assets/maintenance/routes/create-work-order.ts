import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateWorkOrder, WorkOrder } from "../maintenance.schemas.ts";
import { createWorkOrder as create } from "../maintenance.service.ts";

export const createWorkOrder = defineRoute({
  family: "assets",
  method: "post",
  path: "/work-orders",
  operationId: "createWorkOrder",
  summary: "Open a work order for an item",
  description: [
    "Creates an `open` order that holds the item in maintenance from now on (availability in_maintenance, unless the item is out of use and so unavailable; the lifecycle changes only when the order is started) and writes a `maintenance_started` movement.",
    "An unknown item is 400 at /body/itemId; a disposed or consumed item is 409 state_conflict.",
    "`assigneeUserId` must be an active member holding ams_operate (400 at /body/assigneeUserId otherwise). `dueAt` must be in the future.",
    "With `recurrence`, completing the order opens the next one.",
  ].join(" "),
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_operate",
  body: CreateWorkOrder,
  file: import.meta.path,
  responses: { 201: { description: "The work order", schema: WorkOrder, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const order = await create(ctx, body);
    return { status: 201, body: order, headers: { Location: `/api/assets/work-orders/${order.id}?partnerId=${query.partnerId}` } };
  },
});
