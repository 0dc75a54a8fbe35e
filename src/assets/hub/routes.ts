// The logistics hub at /hub: tasks, dock appointments, quality holds, replenishment
// rules and continuity runs, in the spec's order (reads first).
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getHubOverview } from "./overview/routes/get-hub-overview.ts";
import { getHubSummary } from "./overview/routes/get-hub-summary.ts";
import { listHubTasks } from "./tasks/routes/list-hub-tasks.ts";
import { listHubRecords } from "./overview/routes/list-hub-records.ts";
import { getHubRecord } from "./overview/routes/get-hub-record.ts";
import { createHubTask } from "./tasks/routes/create-hub-task.ts";
import { assignHubTasks } from "./tasks/routes/assign-hub-tasks.ts";
import { getHubTask } from "./tasks/routes/get-hub-task.ts";
import { assignHubTask } from "./tasks/routes/assign-hub-task.ts";
import { advanceHubTask } from "./tasks/routes/advance-hub-task.ts";
import { cancelHubTask } from "./tasks/routes/cancel-hub-task.ts";
import { createDockAppointment } from "./dock/routes/create-dock-appointment.ts";
import { transitionDockAppointment } from "./dock/routes/transition-dock-appointment.ts";
import { createQualityHold } from "./holds/routes/create-quality-hold.ts";
import { resolveQualityHold } from "./holds/routes/resolve-quality-hold.ts";
import { createReplenishmentRule } from "./replenishment/routes/create-replenishment-rule.ts";
import { evaluateReplenishmentRule } from "./replenishment/routes/evaluate-replenishment-rule.ts";
import { createContinuityRun } from "./continuity/routes/create-continuity-run.ts";
import { completeContinuityRun } from "./continuity/routes/complete-continuity-run.ts";

export const routes: AnyRoute[] = [
  getHubOverview,
  getHubSummary,
  listHubTasks,
  listHubRecords,
  getHubRecord,
  createHubTask,
  assignHubTasks,
  getHubTask,
  assignHubTask,
  advanceHubTask,
  cancelHubTask,
  createDockAppointment,
  transitionDockAppointment,
  createQualityHold,
  resolveQualityHold,
  createReplenishmentRule,
  evaluateReplenishmentRule,
  createContinuityRun,
  completeContinuityRun,
];
