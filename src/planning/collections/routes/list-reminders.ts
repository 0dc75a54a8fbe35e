import { listRoute } from "../collection-routes.ts";
import { PlainListQuery, ReminderList } from "../collections.schemas.ts";

export const listReminders = listRoute({
  collection: "reminders",
  operationId: "listReminders",
  summary: "List the project's reminders",
  tag: "Reminders",
  query: PlainListQuery,
  list: ReminderList,
  file: import.meta.path,
});
