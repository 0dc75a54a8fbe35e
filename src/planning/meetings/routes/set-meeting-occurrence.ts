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
    "Beyond the spec: what the calendar export's EXDATE and RECURRENCE-ID come from. `occurrenceAt` must be a start the series produces — its RRULE",
    "expanded (rrule library) from the meeting's start in the project's time zone, keeping its local time across daylight-saving changes — else 400 at",
    "`/body/occurrenceAt` (e.g. the 2nd Monday of a `BYDAY=1MO` series, or 08:00Z for a 09:00 Europe/Berlin series in summer, which is at 07:00Z);",
    "`cancelled: true` drops it, `startsAt`/`endsAt` (together), `title` and `location` change it. Sending the same occurrence again replaces its exception",
    "and raises its version. A meeting without `recurrence`, or whose stored rule is outside the series bounds, is 409 state_conflict. planning_edit; audited.",
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
