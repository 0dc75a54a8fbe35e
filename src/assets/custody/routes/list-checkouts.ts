import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListCheckoutsQuery, CheckoutList } from "../custody.schemas.ts";
import { listCheckouts as list } from "../custody.service.ts";

export const listCheckouts = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/checkouts",
  operationId: "listCheckouts",
  summary: "List checkouts and reservations",
  description:
    "Ordered by (updatedAt, id) descending. `overdue=true` is a checkout in state checked_out whose dueAt is before the server time; `overdue=false` is every other record.",
  tags: ["Custody"],
  auth: "session",
  capability: "ams_view",
  query: ListCheckoutsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of checkouts", schema: CheckoutList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
