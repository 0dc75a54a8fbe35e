import { createRoute } from "../collection-routes.ts";
import { CreateMeeting, Meeting } from "../collections.schemas.ts";

export const createMeeting = createRoute({
  collection: "meetings",
  operationId: "createMeeting",
  summary: "Add meetings to the project",
  description: "A meeting, created `scheduled` (or `draft`); `recurrence` is an RFC 5545 RRULE value.",
  tag: "Meetings",
  body: CreateMeeting,
  record: Meeting,
  schemaName: "CreateMeeting",
  file: import.meta.path,
});
