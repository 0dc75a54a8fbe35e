import { createRoute } from "../collection-routes.ts";
import { CreateReminder, Reminder } from "../collections.schemas.ts";

export const createReminder = createRoute({
  collection: "reminders",
  operationId: "createReminder",
  summary: "Add reminders to the project",
  description: "An entry of the canonical email reminder schedule: what (`title`, `message`), to whom (`audience`), and when: `at`, or `offsetMinutes` relative to `event_start`, `event_end`, or a meeting or work item of this project (exactly one of the two forms, 400 otherwise).",
  tag: "Reminders",
  body: CreateReminder,
  record: Reminder,
  schemaName: "CreateReminder",
  file: import.meta.path,
});
