import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { CreateQualityHold, QualityHold } from "../holds.schemas.ts";
import { createQualityHold as create } from "../holds.service.ts";

export const createQualityHold = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/quality-holds",
  operationId: "createQualityHold",
  summary: "Put items on a quality hold",
  description:
    "In one transaction each item gets a `hold` block (its availability becomes on_hold) and a `held` movement (data.holdId; no domain event). " +
    "A repeated or unknown item is 400 at /body/itemIds/<i>; a disposed or consumed item is 409 state_conflict naming it. An item may be on several " +
    "holds; it stays on_hold until the last is resolved.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  body: CreateQualityHold,
  file: import.meta.path,
  responses: { 201: { description: "The hold", schema: QualityHold, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const hold = await create(ctx, body);
    return { status: 201, body: hold, headers: { Location: `/api/assets/hub/records/${hold.id}?partnerId=${query.partnerId}` } };
  },
});
