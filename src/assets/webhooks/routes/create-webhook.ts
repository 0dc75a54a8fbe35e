import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateWebhook, CreatedWebhookEndpoint } from "../webhooks.schemas.ts";
import { createWebhook as create } from "../webhooks.service.ts";

export const createWebhook = defineRoute({
  family: "assets",
  method: "post",
  path: "/webhooks",
  operationId: "createWebhook",
  summary: "Create a webhook endpoint",
  description: [
    "Step-up required. The server generates the signing secret and returns it in `secret` in this response only; it is stored encrypted with AMS_WEBHOOK_ENCRYPTION_KEY",
    "(without that key: 409 `webhook_key_not_configured`). The URL must be https and resolve only to public addresses unless WEBHOOK_ALLOW_PRIVATE=1 (else 400 at /body/url).",
    "The endpoint receives the events committed after its creation, in commit order, one delivery per event, retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then `failed`.",
  ].join(" "),
  tags: ["Webhooks"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  body: CreateWebhook,
  file: import.meta.path,
  responses: { 201: { description: "The endpoint, with its secret (shown only here)", schema: CreatedWebhookEndpoint, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const endpoint = await create(ctx, body);
    return { status: 201, body: endpoint, headers: { Location: `/api/assets/webhooks/${endpoint.id}?partnerId=${query.partnerId}` } };
  },
});
