import { listRoute } from "../collection-routes.ts";
import { PlainListQuery, CalendarList } from "../collections.schemas.ts";

export const listCalendars = listRoute({
  collection: "calendars",
  operationId: "listCalendars",
  summary: "List the project's calendars",
  tag: "Calendars",
  query: PlainListQuery,
  list: CalendarList,
  file: import.meta.path,
});
