import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeliveryHistory, DeliveryHistoryQuery, ProjectOnlyParams } from "../notifications.schemas.ts";
import { listDeliveryHistory as list } from "../delivery.service.ts";

export const listDeliveryHistory = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/delivery-history",
  operationId: "listDeliveryHistory",
  summary: "Delivery attempts of the project's reminders",
  description:
    "Every send attempt (notification outbox entry), newest first by (recordedAt, id), at most 200 a page. Project leads and planning_admin see every recipient's attempts; other members only their own. " +
    "Destinations are masked and dispositions are safe codes: sent, delivered, sent_unconfirmed, queued, no_eligible_device, lease_expired, retry_wait, policy_blocked, provider_unconfigured, provider_failure, destination_unavailable, rate_limited, retry_exhausted, expired, sms_verification_required, sms_consent_required, suppressed_duplicate, cancelled_<reason>.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_view",
  params: ProjectOnlyParams,
  query: DeliveryHistoryQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of attempts", schema: DeliveryHistory } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.projectId, query) }),
});
