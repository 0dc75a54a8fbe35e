import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListWorkOrdersQuery, WorkOrderList } from "../maintenance.schemas.ts";
import { listWorkOrders as list } from "../maintenance.service.ts";

export const listWorkOrders = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags move with the clock.
  freshness: "clock",
  path: "/work-orders",
  operationId: "listWorkOrders",
  summary: "List work orders",
  description:
    "Ordered by (updatedAt, id) descending. `q`: every word must begin a word of the title (case and accents ignored). `status`: comma-separated. `itemId`: the maintained item's orders.",
  tags: ["Maintenance"],
  auth: "session",
  capability: "ams_view",
  query: ListWorkOrdersQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of work orders", schema: WorkOrderList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
