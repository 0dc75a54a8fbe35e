import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { TestWebhook, WebhookAttempt } from "../webhooks.schemas.ts";
import { testWebhook as sendTest } from "../webhooks.service.ts";

export const testWebhook = defineRoute({
  family: "assets",
  method: "post",
  path: "/webhooks/{id}/test",
  operationId: "testWebhook",
  summary: "Send a test delivery now",
  description: [
    "Step-up required. Sends one `webhook.test` event (data: endpointId, requestedBy), signed like every delivery, and answers with the attempt:",
    "`succeeded` on a 2xx answer, else `failed` with the status code or error. A test is not retried, does not change the endpoint's state and works on a disabled endpoint;",
    "it appears in the delivery history. 409 `webhook_key_not_configured` without AMS_WEBHOOK_ENCRYPTION_KEY.",
  ].join(" "),
  tags: ["Webhooks"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  params: IdParams,
  body: TestWebhook,
  file: import.meta.path,
  responses: { 200: { description: "The test delivery's attempt", schema: WebhookAttempt } },
  handler: async (ctx, { params }) => ({ status: 200, body: await sendTest(ctx, params.id) }),
});
