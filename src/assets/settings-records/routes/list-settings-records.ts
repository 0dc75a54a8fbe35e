import { defineRoute } from "../../../platform/http/define-route.ts";
import { SettingsRecordList, SettingsRecordsQuery } from "../settings-records.schemas.ts";
import { listSettingsRecords as run } from "../settings-records.service.ts";

export const listSettingsRecords = defineRoute({
  family: "assets",
  method: "get",
  path: "/settings/records",
  operationId: "listSettingsRecords",
  summary: "Page through one master-data register as settings records",
  description:
    "Uniform projections of locations, parties, agreements or the catalogue (categories and models together), ordered by (updatedAt, id) descending, with the exact total for the filters. The list property is `records`.",
  tags: ["Settings"],
  auth: "session",
  capability: "ams_view",
  query: SettingsRecordsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of settings records", schema: SettingsRecordList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await run(ctx, query) }),
});
