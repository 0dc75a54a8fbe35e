import { updateRoute } from "../collection-routes.ts";
import { UpdateReminder, Reminder } from "../collections.schemas.ts";

export const updateReminder = updateRoute({
  collection: "reminders",
  operationId: "updateReminder",
  summary: "Change one of the project's reminders (versioned)",
  tag: "Reminders",
  body: UpdateReminder,
  record: Reminder,
  file: import.meta.path,
});
