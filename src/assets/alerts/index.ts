// The published surface of assets/alerts: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { ListAlertsQuery } from "./alerts.schemas.ts";
export { alertsDueAt, materialiseAlerts, raiseAlert, webhookFailingCondition } from "./alerts.service.ts";
