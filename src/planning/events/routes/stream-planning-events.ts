import { defineRoute } from "../../../platform/http/define-route.ts";
import { eventStreamSchema, STREAM_ROUTE_NOTES } from "../../../platform/events/schemas.ts";
import { streamPlanningEvents as stream } from "../events.service.ts";

export const streamPlanningEvents = defineRoute({
  family: "planning",
  method: "get",
  path: "/events/stream",
  operationId: "streamPlanningEvents",
  summary: "Stream the changes of the caller's projects (server-sent events)",
  description: [
    "Every audited change of the plan in the projects the caller is a member of (all projects with planning_admin),",
    "as it commits: projects, collection records (work, meetings, requirements, …), dependencies, resource links,",
    "change sets, agenda and minutes, canonical records and imports. An event names the record and what happened;",
    "read the record for its content. Personal records (reminder channels, calendar feeds) and artifacts are not streamed.",
    STREAM_ROUTE_NOTES,
  ].join(" "),
  tags: ["Live events"],
  auth: "session",
  capability: "planning_view",
  freshness: "live",
  problems: [429, 503],
  file: import.meta.path,
  responses: {
    200: {
      description: "The event stream (open until the client leaves, access ends, the token expires or the server stops)",
      mediaType: "text/event-stream",
      schema: eventStreamSchema(
        "Event types: planning.project.changed, planning.record.changed, planning.dependency.changed, planning.change_set.changed, " +
          "planning.meeting.changed; data `{ projectId, recordType, recordId, action, meetingId? }` where recordType is the audited " +
          "record's type (`project`, `work`, `meetings`, `minutes`, `change_set`, `dependency`, `canonical_event`, …) and action what happened " +
          "(`created`, `updated`, `moved_to_done`, `approved`, `applied`, …).",
      ),
    },
  },
  handler: async (ctx, _input, c) => ({ status: 200, body: await stream(ctx, c) }),
});
