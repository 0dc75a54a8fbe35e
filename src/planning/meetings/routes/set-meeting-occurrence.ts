import { defineRoute } from "../../../platform/http/define-route.ts";
import { MeetingOccurrence, MeetingParams, OccurrenceInput } from "../meetings.schemas.ts";
import { setOccurrence } from "../meetings.service.ts";

export const setMeetingOccurrence = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/meetings/{meetingId}/occurrences",
  operationId: "setMeetingOccurrence",
  summary: "Cancel or change one occurrence of a recurring meeting",
  description: [
    "Beyond the spec: what the calendar export's EXDATE and RECURRENCE-ID come from. `occurrenceAt` must be an occurrence the series generates (400 otherwise);",
    "`cancelled: true` drops it, `startsAt`/`endsAt` (together), `title` and `location` change it. Sending the same occurrence again replaces its exception",
    "and raises its version. A meeting without `recurrence` is 409. planning_edit; audited.",
  ].join(" "),
  tags: ["Meetings"],
  auth: "session",
  capability: "planning_edit",
  params: MeetingParams,
  body: OccurrenceInput,
  file: import.meta.path,
  responses: { 200: { description: "The occurrence as it now stands", schema: MeetingOccurrence } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await setOccurrence(ctx, params.projectId, params.meetingId, body) }),
});
