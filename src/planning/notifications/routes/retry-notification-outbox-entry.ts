import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeliveryAttempt, OutboxParams } from "../notifications.schemas.ts";
import { retryAttempt } from "../delivery.service.ts";

export const retryNotificationOutboxEntry = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/notification-outbox/{outboxId}/retry",
  operationId: "retryNotificationOutboxEntry",
  summary: "Retry a failed delivery attempt",
  description:
    "Makes a new pending attempt of the same logical reminder (never another reminder); the failed attempt stays as it was. The recipient or a project lead (or planning_admin) may retry; anyone else gets 404. " +
    "409 state_conflict when the attempt did not fail, was already retried or its reminder was cancelled; 409 channel_unavailable, sms_verification_required or sms_consent_required when the channel is no longer the one the reminder was derived for; 409 retry_exhausted after 5 attempts.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_view",
  idempotency: "required",
  params: OutboxParams,
  file: import.meta.path,
  responses: { 200: { description: "The new attempt", schema: DeliveryAttempt } },
  handler: async (ctx, { params }) => ({ status: 200, body: await retryAttempt(ctx, params.projectId, params.outboxId) }),
});
