import { defineRoute } from "../../../platform/http/define-route.ts";
import { EligibleUsersQuery, EligibleUserList } from "../capabilities.schemas.ts";
import { listEligibleUsers as list } from "../eligible-users.service.ts";

export const listEligibleUsers = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/eligible-users",
  operationId: "listEligibleUsers",
  summary: "Active members eligible for an AMS capability (combobox entries, never an email)",
  description: [
    "Ordered by display name; at most 500 entries. Accepts no actor identity.",
    "A reviewer picker passes `excludeMakerOf=<type>:<id>` of the record to decide, e.g. `capability=ams_review&excludeMakerOf=evidence:<id>`:",
    "the record's maker (or, for an audit result, everyone who counted its item) is left out, since the maker never decides (403 maker_cannot_decide).",
    "The record must exist and be visible to the caller (404 otherwise). Records also carry `canDecide` for the caller.",
  ].join(" "),
  tags: ["Capabilities"],
  auth: "session",
  capability: "ams_view",
  query: EligibleUsersQuery,
  // excludeMakerOf naming a record that does not exist or that the caller may not see.
  problems: [404],
  file: import.meta.path,
  responses: { 200: { description: "Eligible users", schema: EligibleUserList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
