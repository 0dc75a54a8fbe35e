import { getRoute } from "../collection-routes.ts";
import { Calendar } from "../collections.schemas.ts";

export const getCalendar = getRoute({
  collection: "calendars",
  operationId: "getCalendar",
  summary: "Read one of the project's calendars",
  tag: "Calendars",
  record: Calendar,
  file: import.meta.path,
});
