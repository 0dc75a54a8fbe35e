import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { ICalendarText } from "../calendar.schemas.ts";
import { projectCalendarIcs } from "../calendar.service.ts";
import { linksOf } from "../calendar.links.ts";

export const exportProjectCalendar = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/calendar.ics",
  operationId: "exportProjectCalendar",
  summary: "The project's meetings and due work as iCalendar",
  description: [
    "RFC 5545 publish profile: meetings as VEVENT (a recurring meeting is one VEVENT with RRULE and EXDATE for cancelled occurrences; an edited",
    "occurrence is a VEVENT with the same UID and RECURRENCE-ID), work items with a due time as VTODO. UIDs are stable per record; SEQUENCE rises with",
    "every change; cancelled meetings stay with STATUS:CANCELLED so subscribed calendars remove them. Times are UTC, except a recurring meeting's in a project",
    "not in UTC: its DTSTART, DTEND, EXDATE and RECURRENCE-ID carry TZID=<the project's time zone> with a VTIMEZONE (built from the server's time-zone data), so",
    "calendar apps keep the series at its local time across daylight-saving changes as the server does; RRULE is as stored (UNTIL in UTC). Text escaped, lines folded at",
    "75 octets, CRLF line ends. Each record's URL is its API address on the configured public base URL (PUBLIC_BASE_URL, never the request's Host); without one",
    "the records carry no URL. For calendar apps that cannot send headers, see the subscription URL (POST …/calendar-feed).",
  ].join(" "),
  tags: ["Calendar"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  file: import.meta.path,
  responses: { 200: { description: "The calendar", schema: ICalendarText, mediaType: "text/calendar" } },
  handler: async (ctx, { params }, c) => {
    const text = await projectCalendarIcs(ctx, params.projectId, linksOf(ctx.deps, ctx.partnerId));
    return { status: 200, body: new Response(text, { status: 200, headers: { "Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "private, no-cache" } }) };
  },
});
