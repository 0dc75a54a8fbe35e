import { defineRoute } from "../../../platform/http/define-route.ts";
import { Summary } from "../register.schemas.ts";
import { getSummary as summarise } from "../register.service.ts";

export const getSummary = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/summary",
  operationId: "getSummary",
  summary: "Exact overview counts of the register",
  description:
    "Item counts by lifecycle and availability (every key present), checkouts past their dueAt, and items in transit, " +
    "all read in one snapshot. openWorkOrders is 0 until work orders exist.",
  tags: ["Register"],
  auth: "session",
  capability: "ams_view",
  file: import.meta.path,
  responses: { 200: { description: "The counts", schema: Summary } },
  handler: async (ctx) => ({ status: 200, body: await summarise(ctx) }),
});
