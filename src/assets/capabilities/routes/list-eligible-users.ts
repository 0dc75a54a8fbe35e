import { defineRoute } from "../../../platform/http/define-route.ts";
import type { Capability } from "../../../platform/auth/capabilities.ts";
import { EligibleUsersQuery, EligibleUserList } from "../capabilities.schemas.ts";
import { listEligibleUsers as list } from "../capabilities.service.ts";

export const listEligibleUsers = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/eligible-users",
  operationId: "listEligibleUsers",
  summary: "Active members eligible for an AMS capability (combobox entries, never an email)",
  description: "Ordered by display name; at most 500 entries. Accepts no actor identity.",
  tags: ["Capabilities"],
  auth: "session",
  capability: "ams_view",
  query: EligibleUsersQuery,
  file: import.meta.path,
  responses: { 200: { description: "Eligible users", schema: EligibleUserList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query.capability as Capability) }),
});
