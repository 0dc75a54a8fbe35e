import { defineRoute } from "../../../platform/http/define-route.ts";
import { AlertList, ListAlertsQuery } from "../alerts.schemas.ts";
import { listAlerts as list } from "../alerts.service.ts";

export const listAlerts = defineRoute({
  family: "assets",
  method: "get",
  path: "/alerts",
  operationId: "listAlerts",
  summary: "List alerts",
  description: [
    "Ordered by (createdAt, id) descending. The alerts job (every minute) raises one alert per due condition (fingerprint kind:record:due condition)",
    "and resolves it when the condition has cleared: checkout_due (dueAt within 24 h), checkout_overdue, agreement_expiring and asset_warranty_expiring",
    "(warranty or lease agreements of assets in service, ending within ALERT_HORIZON_DAYS), audit_due (planned or counting, dueAt within 24 h or past),",
    "shipment_delayed (on its way past expectedArrivalAt), work_order_overdue and webhook_failing (an endpoint disabled after 5 days of failures).",
  ].join(" "),
  tags: ["Alerts"],
  auth: "session",
  capability: "ams_view",
  query: ListAlertsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of alerts", schema: AlertList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
