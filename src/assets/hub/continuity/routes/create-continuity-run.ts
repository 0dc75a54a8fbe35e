import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { ContinuityRun, CreateContinuityRun } from "../continuity.schemas.ts";
import { createContinuityRun as create } from "../continuity.service.ts";

export const createContinuityRun = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/continuity-runs",
  operationId: "createContinuityRun",
  summary: "Start a continuity run",
  description: "A business-continuity drill of a scenario with its checklist (positions 1…n, in the order given), started now (`in_progress`).",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  body: CreateContinuityRun,
  file: import.meta.path,
  responses: { 201: { description: "The run", schema: ContinuityRun, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const run = await create(ctx, body);
    return { status: 201, body: run, headers: { Location: `/api/assets/hub/records/${run.id}?partnerId=${query.partnerId}` } };
  },
});
