import { defineRoute } from "../../../platform/http/define-route.ts";
import { eventStreamSchema, STREAM_ROUTE_NOTES } from "../../../platform/events/schemas.ts";
import { EVENT_KINDS } from "../../../platform/outbox/outbox.ts";
import { ASSET_STREAM_KINDS, streamAssetEvents as stream } from "../events.service.ts";

export const streamAssetEvents = defineRoute({
  family: "assets",
  method: "get",
  path: "/events/stream",
  operationId: "streamAssetEvents",
  summary: "Stream the partner's domain events (server-sent events)",
  description: [
    "The partner's domain events as they commit, for dashboards that would otherwise poll: the contract §10 kinds",
    "(the webhook kinds) and the stream-only kinds that say a record changed (items, hub tasks, alerts, workflow cases,",
    "policies, audits, evidence). Each caller sees what they may read: workflow cases only their maker and holders",
    "of the type's decide capability; restricted evidence only ams_admin.",
    STREAM_ROUTE_NOTES,
  ].join(" "),
  tags: ["Live events"],
  auth: "session",
  capability: "ams_view",
  freshness: "live",
  problems: [429, 503],
  file: import.meta.path,
  responses: {
    200: {
      description: "The event stream (open until the client leaves, access ends, the token expires or the server stops)",
      mediaType: "text/event-stream",
      schema: eventStreamSchema(
        `Event types: ${EVENT_KINDS.filter((k) => k !== "webhook.test").join(", ")} (data as webhooks receive them, contract §10); ` +
          "item.changed `{ itemId }` (its lifecycle, availability or other fields changed: activation, holds, work orders, retirement, …), " +
          "hub.task.changed `{ taskId, taskType, status, assigneeUserId, version }`, alert.changed `{ alertId, kind, status }`, " +
          "workflow_case.changed `{ caseId, type, state, version, createdBy }`, policy.changed `{ policyId, action }`, " +
          "audit.changed `{ auditId, action }`, evidence.changed `{ evidenceId, classification, scanState, targetType, targetId }`. " +
          `(${ASSET_STREAM_KINDS.length} stream-only kinds; they never reach webhooks.)`,
      ),
    },
  },
  handler: async (ctx, _input, c) => ({ status: 200, body: await stream(ctx, c) }),
});
