import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListWebhooksQuery, WebhookEndpointList } from "../webhooks.schemas.ts";
import { listWebhooks as list } from "../webhooks.service.ts";

export const listWebhooks = defineRoute({
  family: "assets",
  method: "get",
  path: "/webhooks",
  operationId: "listWebhooks",
  summary: "List webhook endpoints",
  description: "Ordered by (updatedAt, id) descending. The signing secret is never shown here (only once, in the response that created it).",
  tags: ["Webhooks"],
  auth: "session",
  capability: "ams_admin",
  query: ListWebhooksQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of webhook endpoints", schema: WebhookEndpointList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
