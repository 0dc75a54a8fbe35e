import { createRoute } from "../collection-routes.ts";
import { CreateMeeting, Meeting } from "../collections.schemas.ts";

export const createMeeting = createRoute({
  collection: "meetings",
  operationId: "createMeeting",
  summary: "Add meetings to the project",
  description:
    "A meeting, created `scheduled` (or `draft`); `recurrence` is an RFC 5545 RRULE value, expanded from `startsAt` (its first occurrence) in the project's `timeZone`: " +
    "each occurrence keeps startsAt's local wall-clock time across daylight-saving changes (a weekly 09:00 Europe/Berlin meeting is at 08:00Z in winter, 07:00Z in summer). " +
    "SECONDLY and MINUTELY are refused, and every series ends (COUNT or UNTIL) within 5 years of its start after at most 2,000 occurrences: 400 at `/body/recurrence` otherwise.",
  tag: "Meetings",
  body: CreateMeeting,
  record: Meeting,
  schemaName: "CreateMeeting",
  file: import.meta.path,
});
