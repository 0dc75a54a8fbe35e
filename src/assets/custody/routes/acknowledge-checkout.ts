import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { AcknowledgeCheckout, Checkout } from "../custody.schemas.ts";
import { acknowledgeCheckout as acknowledge } from "../custody.service.ts";

export const acknowledgeCheckout = defineRoute({
  family: "assets",
  method: "post",
  path: "/checkouts/{id}/acknowledge",
  operationId: "acknowledgeCheckout",
  summary: "The holder acknowledges receipt",
  description:
    "Any member may call it, but only the holder when the holder is a user and that user is the caller; anyone else (and any party or location holding) is 403 `not_holder`. Acknowledging twice is 409 state_conflict; a transfer resets it. Writes an `acknowledged` movement (holder = the caller; no domain event).",
  tags: ["Custody"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  body: AcknowledgeCheckout,
  file: import.meta.path,
  responses: { 200: { description: "The acknowledged checkout", schema: Checkout } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await acknowledge(ctx, params.id, body) }),
});
