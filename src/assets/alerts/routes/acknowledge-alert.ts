import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { AcknowledgeAlert, Alert } from "../alerts.schemas.ts";
import { acknowledgeAlert as acknowledge } from "../alerts.service.ts";

export const acknowledgeAlert = defineRoute({
  family: "assets",
  method: "post",
  path: "/alerts/{id}/acknowledge",
  operationId: "acknowledgeAlert",
  summary: "Acknowledge an alert",
  description:
    "Records the signed-in user and the server time on an open alert (→ acknowledged). The underlying record is neither changed nor resolved; the alert resolves when the job finds its condition cleared. An acknowledged or resolved alert is 409 state_conflict.",
  tags: ["Alerts"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  body: AcknowledgeAlert,
  file: import.meta.path,
  responses: { 200: { description: "The acknowledged alert", schema: Alert } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await acknowledge(ctx, params.id, body) }),
});
