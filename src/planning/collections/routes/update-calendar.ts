import { updateRoute } from "../collection-routes.ts";
import { UpdateCalendar, Calendar } from "../collections.schemas.ts";

export const updateCalendar = updateRoute({
  collection: "calendars",
  operationId: "updateCalendar",
  summary: "Change one of the project's calendars (versioned)",
  tag: "Calendars",
  body: UpdateCalendar,
  record: Calendar,
  file: import.meta.path,
});
