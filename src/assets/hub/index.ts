// The logistics hub at /hub: tasks, dock appointments, quality holds, replenishment
// rules and continuity runs, in the spec's order (reads first).
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getHubOverview } from "./routes/get-hub-overview.ts";
import { getHubSummary } from "./routes/get-hub-summary.ts";
import { listHubTasks } from "./routes/list-hub-tasks.ts";
import { listHubRecords } from "./routes/list-hub-records.ts";
import { getHubRecord } from "./routes/get-hub-record.ts";
import { createHubTask } from "./routes/create-hub-task.ts";
import { assignHubTasks } from "./routes/assign-hub-tasks.ts";
import { getHubTask } from "./routes/get-hub-task.ts";
import { assignHubTask } from "./routes/assign-hub-task.ts";
import { advanceHubTask } from "./routes/advance-hub-task.ts";
import { cancelHubTask } from "./routes/cancel-hub-task.ts";
import { createDockAppointment } from "./routes/create-dock-appointment.ts";
import { transitionDockAppointment } from "./routes/transition-dock-appointment.ts";
import { createQualityHold } from "./routes/create-quality-hold.ts";
import { resolveQualityHold } from "./routes/resolve-quality-hold.ts";
import { createReplenishmentRule } from "./routes/create-replenishment-rule.ts";
import { evaluateReplenishmentRule } from "./routes/evaluate-replenishment-rule.ts";
import { createContinuityRun } from "./routes/create-continuity-run.ts";
import { completeContinuityRun } from "./routes/complete-continuity-run.ts";

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
