import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { CreateReplenishmentRule, ReplenishmentRule } from "../replenishment.schemas.ts";
import { createReplenishmentRule as create } from "../replenishment.service.ts";

export const createReplenishmentRule = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/replenishment-rules",
  operationId: "createReplenishmentRule",
  summary: "Create a replenishment rule",
  description:
    "Keep between min and max of a model at a location. One rule per (location, model): a second is 409 duplicate. max below min is 400 at /body/max. " +
    "The replenishment job evaluates every rule every 5 minutes (as POST /hub/replenishment-rules/{id}/evaluate does for one).",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  body: CreateReplenishmentRule,
  file: import.meta.path,
  responses: { 201: { description: "The rule", schema: ReplenishmentRule, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const rule = await create(ctx, body);
    return { status: 201, body: rule, headers: { Location: `/api/assets/hub/records/${rule.id}?partnerId=${query.partnerId}` } };
  },
});
