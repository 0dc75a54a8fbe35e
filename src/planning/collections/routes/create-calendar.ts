import { createRoute } from "../collection-routes.ts";
import { CreateCalendar, Calendar } from "../collections.schemas.ts";

export const createCalendar = createRoute({
  collection: "calendars",
  operationId: "createCalendar",
  summary: "Add calendars to the project",
  description: "A named planning calendar of the project (work items may name it); `timeZone` is IANA.",
  tag: "Calendars",
  body: CreateCalendar,
  record: Calendar,
  schemaName: "CreateCalendar",
  file: import.meta.path,
});
