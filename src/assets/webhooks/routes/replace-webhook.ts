import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ReplaceWebhook, WebhookEndpoint } from "../webhooks.schemas.ts";
import { replaceWebhook as replace } from "../webhooks.service.ts";

export const replaceWebhook = defineRoute({
  family: "assets",
  method: "put",
  path: "/webhooks/{id}",
  operationId: "replaceWebhook",
  summary: "Replace a webhook endpoint's URL, event kinds and enabled flag",
  description: [
    "Step-up required. The secret is kept. Enabling needs AMS_WEBHOOK_ENCRYPTION_KEY (409 `webhook_key_not_configured`), clears `disabledReason` and `failingSince`,",
    "and delivers only events committed from then on. Disabling fails the endpoint's pending deliveries; nothing is sent while disabled.",
  ].join(" "),
  tags: ["Webhooks"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  params: IdParams,
  body: ReplaceWebhook,
  file: import.meta.path,
  responses: { 200: { description: "The endpoint", schema: WebhookEndpoint } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await replace(ctx, params.id, body) }),
});
