import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ListWebhookDeliveriesQuery, WebhookAttemptList } from "../webhooks.schemas.ts";
import { listWebhookDeliveries as list } from "../webhooks.service.ts";

export const listWebhookDeliveries = defineRoute({
  family: "assets",
  method: "get",
  path: "/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "A webhook endpoint's delivery history",
  description: [
    "Every attempt, newest first ((recordedAt, id) descending): delivery id (the same on every retry), event, attempt number, status code, duration,",
    "outcome and, while retrying, the next attempt's time. Kept 30 days after a delivery finished. A delivery appears once it has been attempted.",
  ].join(" "),
  tags: ["Webhooks"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  query: ListWebhookDeliveriesQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of delivery attempts", schema: WebhookAttemptList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.id, query) }),
});
