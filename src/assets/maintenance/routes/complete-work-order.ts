import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CompleteWorkOrder, WorkOrder } from "../maintenance.schemas.ts";
import { completeWorkOrder as complete } from "../maintenance.service.ts";

export const completeWorkOrder = defineRoute({
  family: "assets",
  method: "post",
  path: "/work-orders/{id}/complete",
  operationId: "completeWorkOrder",
  summary: "Complete a work order",
  description: [
    "in_progress or paused → completed (else 409 state_conflict naming the status). Records the outcome, labour (minutes per member, default the caller), cost as stated and nextDueOn.",
    "Each part is a quantity-tracked item consumed as POST /items/{id}/consume would: quantity down, a `consumed` movement (data.workOrderId), lifecycle consumed at 0;",
    "an unknown or serialised part, the maintained item itself or a part listed twice is 400 at its /body/parts/{i}/itemId; a part that is not active, is checked out, packed or in transit, or has too few on hand is 409, and nothing is consumed.",
    "The item is let go (maintenance_completed movement) and becomes available unless something else holds it; when no other open order holds it, an item in lifecycle `in_maintenance` is back to `active` (item history `left_maintenance`).",
    "A recurring order opens the next order: due at the end of nextDueOn (UTC) when given, else recurrence.everyDays after now; it holds the item only once started.",
  ].join(" "),
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CompleteWorkOrder,
  file: import.meta.path,
  responses: { 200: { description: "The completed work order", schema: WorkOrder } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await complete(ctx, params.id, body) }),
});
