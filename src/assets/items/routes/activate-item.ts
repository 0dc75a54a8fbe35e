import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Item } from "../../kernel/index.ts";
import { ActivateItem } from "../items.schemas.ts";
import { activateItem as activate } from "../items.service.ts";

export const activateItem = defineRoute({
  family: "assets",
  method: "post",
  path: "/items/{id}/activate",
  operationId: "activateItem",
  summary: "Put a planned item into service",
  description: "`planned` → `active`; any other lifecycle is 409 `state_conflict`. Beyond the spec: optional `expectedVersion` and `reason`. Writes an `activated` movement (no domain event).",
  tags: ["Assets"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ActivateItem,
  file: import.meta.path,
  responses: { 200: { description: "The activated item", schema: Item } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await activate(ctx, params.id, body) }),
});
