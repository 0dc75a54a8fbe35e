import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeliveryAttempt, OutboxParams } from "../notifications.schemas.ts";
import { reconcileAttempt } from "../delivery.service.ts";

export const reconcileNotificationOutboxEntry = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/notification-outbox/{outboxId}/reconcile",
  operationId: "reconcileNotificationOutboxEntry",
  summary: "Re-read an open attempt's real outcome",
  description:
    "For a queued or unconfirmed SMS attempt, reads the gateway job's state (sent, delivered, failed, expired, cancelled…) and records it; a pending attempt whose reminder was cancelled becomes cancelled. Never sends and never makes another attempt or reminder. " +
    "A finished attempt is 409 state_conflict (attempts are immutable once finished). Same visibility as retry.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_view",
  idempotency: "required",
  params: OutboxParams,
  file: import.meta.path,
  responses: { 200: { description: "The attempt as it now stands", schema: DeliveryAttempt } },
  handler: async (ctx, { params }) => ({ status: 200, body: await reconcileAttempt(ctx, params.projectId, params.outboxId) }),
});
