import { getRoute } from "../collection-routes.ts";
import { Reminder } from "../collections.schemas.ts";

export const getReminder = getRoute({
  collection: "reminders",
  operationId: "getReminder",
  summary: "Read one of the project's reminders",
  tag: "Reminders",
  record: Reminder,
  file: import.meta.path,
});
