import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { HubRecordDetail } from "../records.schemas.ts";
import { getHubRecord as get } from "../records.service.ts";

export const getHubRecord = defineRoute({
  family: "assets",
  method: "get",
  path: "/hub/records/{id}",
  operationId: "getHubRecord",
  summary: "Read one hub record with its history",
  description:
    "Beyond the spec: a dock appointment, quality hold, replenishment rule or continuity run by id (the Location of their creates), in the projection of " +
    "GET /hub/records plus `events`, its history newest first.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The record", schema: HubRecordDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
