// The published surface of planning/notifications: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { dispatchDueReminders, drainOutbox, fanOutReminders, remindersDueAt } from "./delivery.service.ts";
