// The published surface of assets/webhooks: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { deliverWebhooks, webhooksDueAt } from "./webhooks.delivery.ts";
