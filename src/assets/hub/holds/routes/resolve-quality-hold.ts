import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { QualityHold, ResolveQualityHold } from "../holds.schemas.ts";
import { resolveQualityHold as resolve } from "../holds.service.ts";

export const resolveQualityHold = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/quality-holds/{id}/resolve",
  operationId: "resolveQualityHold",
  summary: "Resolve a quality hold",
  description:
    "Once (a resolved hold is 409 state_conflict naming its state), in one transaction: the hold's block is cleared from each item and a `hold_released` " +
    "movement (data.resolution) appended. `release` restores the item's availability unless something else still holds it. `scrap` and `return` (to the " +
    "supplier) set the item's qualityStatus to `rejected`, so it stays on_hold: retiring and disposing it is a lifecycle_disposition workflow case's " +
    "decision, never the hub's.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ResolveQualityHold,
  file: import.meta.path,
  responses: { 200: { description: "The resolved hold", schema: QualityHold } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await resolve(ctx, params.id, body) }),
});
