import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listWebhooks } from "./routes/list-webhooks.ts";
import { createWebhook } from "./routes/create-webhook.ts";
import { replaceWebhook } from "./routes/replace-webhook.ts";
import { testWebhook } from "./routes/test-webhook.ts";
import { listWebhookDeliveries } from "./routes/list-webhook-deliveries.ts";

export const routes: AnyRoute[] = [listWebhooks, createWebhook, replaceWebhook, testWebhook, listWebhookDeliveries];
