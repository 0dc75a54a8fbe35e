import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Identifier } from "../identity.dto.ts";
import { TransitionIdentifier } from "../identity.schemas.ts";
import { transitionIdentifier as transition } from "../identity.service.ts";

export const transitionIdentifier = defineRoute({
  family: "assets",
  method: "post",
  path: "/identifiers/{id}/transition",
  operationId: "transitionIdentifier",
  summary: "Move an identifier through issued → active → suspended ↔ active, or retire it",
  description:
    "`issued` → `active`; `active` ↔ `suspended`; any state → `retired`, which is final. Every other move is 409 `state_conflict`. " +
    "Recorded in the item's history with the actor and reason.",
  tags: ["Identity"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: TransitionIdentifier,
  file: import.meta.path,
  responses: { 200: { description: "The identifier in its new state", schema: Identifier } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await transition(ctx, params.id, body) }),
});
