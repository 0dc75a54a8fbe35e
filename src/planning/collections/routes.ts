import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listDepartments } from "./routes/list-departments.ts";
import { createDepartment } from "./routes/create-department.ts";
import { getDepartment } from "./routes/get-department.ts";
import { updateDepartment } from "./routes/update-department.ts";
import { listCalendars } from "./routes/list-calendars.ts";
import { createCalendar } from "./routes/create-calendar.ts";
import { getCalendar } from "./routes/get-calendar.ts";
import { updateCalendar } from "./routes/update-calendar.ts";
import { listWorkItems } from "./routes/list-work-items.ts";
import { createWorkItem } from "./routes/create-work-item.ts";
import { getWorkItem } from "./routes/get-work-item.ts";
import { updateWorkItem } from "./routes/update-work-item.ts";
import { listRequirements } from "./routes/list-requirements.ts";
import { createRequirement } from "./routes/create-requirement.ts";
import { getRequirement } from "./routes/get-requirement.ts";
import { updateRequirement } from "./routes/update-requirement.ts";
import { listMeetings } from "./routes/list-meetings.ts";
import { createMeeting } from "./routes/create-meeting.ts";
import { updateMeeting } from "./routes/update-meeting.ts";
import { listRisks } from "./routes/list-risks.ts";
import { createRisk } from "./routes/create-risk.ts";
import { getRisk } from "./routes/get-risk.ts";
import { updateRisk } from "./routes/update-risk.ts";
import { listGates } from "./routes/list-gates.ts";
import { createGate } from "./routes/create-gate.ts";
import { getGate } from "./routes/get-gate.ts";
import { updateGate } from "./routes/update-gate.ts";
import { listReminders } from "./routes/list-reminders.ts";
import { createReminder } from "./routes/create-reminder.ts";
import { getReminder } from "./routes/get-reminder.ts";
import { updateReminder } from "./routes/update-reminder.ts";

// Spec order: the collections as the spec lists them, each list, create, read, update.
export const routes: AnyRoute[] = [
  listDepartments,
  createDepartment,
  getDepartment,
  updateDepartment,
  listCalendars,
  createCalendar,
  getCalendar,
  updateCalendar,
  listWorkItems,
  createWorkItem,
  getWorkItem,
  updateWorkItem,
  listRequirements,
  createRequirement,
  getRequirement,
  updateRequirement,
  listMeetings,
  createMeeting,
  updateMeeting,
  listRisks,
  createRisk,
  getRisk,
  updateRisk,
  listGates,
  createGate,
  getGate,
  updateGate,
  listReminders,
  createReminder,
  getReminder,
  updateReminder,
];
