import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { CompleteContinuityRun, ContinuityRun } from "../continuity.schemas.ts";
import { completeContinuityRun as complete } from "../continuity.service.ts";

export const completeContinuityRun = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/continuity-runs/{id}/complete",
  operationId: "completeContinuityRun",
  summary: "Complete a continuity run",
  description:
    "Once (a completed run is 409 state_conflict naming its state). Every checklist position gets exactly one result (passed, failed, skipped): an unknown " +
    "or repeated position is 400 at /body/results/<i>/position, a missing one 400 at /body/results. outcome `passed` is 400 while any result is failed.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CompleteContinuityRun,
  file: import.meta.path,
  responses: { 200: { description: "The completed run", schema: ContinuityRun } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await complete(ctx, params.id, body) }),
});
