import { defineRoute } from "../../../../platform/http/define-route.ts";
import { HubRecordList, ListHubRecordsQuery } from "../records.schemas.ts";
import { listHubRecords as list } from "../records.service.ts";

export const listHubRecords = defineRoute({
  family: "assets",
  method: "get",
  path: "/hub/records",
  operationId: "listHubRecords",
  summary: "List hub records of one type",
  description:
    "Dock appointments, quality holds, replenishment rules or continuity runs (`recordType`, required) as one uniform projection; the list property is `records`. " +
    "Ordered by the record's authoritative timestamp and id, descending: appointment scheduledAt, hold placedAt, rule updatedAt, continuity startedAt " +
    "(`at` in each record). Exact total; cursors are bound to the filters.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_view",
  query: ListHubRecordsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of records", schema: HubRecordList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
