import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Movement } from "../../kernel/index.ts";
import { getMovement as get } from "../movements.service.ts";

export const getMovement = defineRoute({
  family: "assets",
  method: "get",
  path: "/movements/{id}",
  operationId: "getMovement",
  summary: "One movement with its correction links",
  description: "Beyond the spec: the Location of a correction created by POST /movements/{id}/correct.",
  tags: ["Movements"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The movement", schema: Movement } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
