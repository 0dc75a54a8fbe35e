// The hub's transition tables (contract §9 for tasks; the hub's own choices for the
// companion records, see README.md). Each record type has one function answering
// "may X go to Y"; every refused move is 409 state_conflict naming the current state.
import { AppError } from "../../platform/errors/app-error.ts";
import type { CONTINUITY_RUN_STATES } from "./continuity/continuity.tables.ts";
import type { DOCK_APPOINTMENT_STATES } from "./dock/dock.tables.ts";
import type { HUB_TASK_STATES } from "./tasks/tasks.tables.ts";
import type { QUALITY_HOLD_STATES } from "./holds/holds.tables.ts";

export type HubTaskState = (typeof HUB_TASK_STATES)[number];
export type DockAppointmentState = (typeof DOCK_APPOINTMENT_STATES)[number];
export type QualityHoldState = (typeof QUALITY_HOLD_STATES)[number];
export type ContinuityRunState = (typeof CONTINUITY_RUN_STATES)[number];

/** Tasks still to be done: counted by the summary, assignable and cancellable. */
export const OPEN_TASK_STATES = ["open", "assigned", "in_progress"] as const satisfies readonly HubTaskState[];

const TASK_MOVES: Record<HubTaskState, HubTaskState[]> = {
  open: ["assigned", "cancelled"],
  assigned: ["in_progress", "cancelled"],
  in_progress: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

/** What `advance` moves a task to: assigned → in_progress → completed. An open task is assigned first. */
const TASK_ADVANCE: Partial<Record<HubTaskState, HubTaskState>> = { assigned: "in_progress", in_progress: "completed" };

export function isOpenTask(state: HubTaskState): boolean {
  return (OPEN_TASK_STATES as readonly string[]).includes(state);
}

export function assertTaskMove(from: HubTaskState, to: HubTaskState, action: string): void {
  if (!TASK_MOVES[from].includes(to)) throw new AppError("state_conflict", `cannot ${action} a hub task that is ${from}`, { extras: { currentState: from } });
}

/** The state `advance` takes the task to, or 409 naming the current one. */
export function nextTaskState(from: HubTaskState): HubTaskState {
  const to = TASK_ADVANCE[from];
  if (!to) {
    const hint = from === "open" ? " (assign it first)" : "";
    throw new AppError("state_conflict", `cannot advance a hub task that is ${from}${hint}`, { extras: { currentState: from } });
  }
  return to;
}

const DOCK_MOVES: Record<DockAppointmentState, DockAppointmentState[]> = {
  scheduled: ["arrived", "cancelled", "no_show"],
  arrived: ["loading", "unloading"],
  loading: ["completed"],
  unloading: ["completed"],
  completed: [],
  cancelled: [],
  no_show: [],
};

export function mayMoveAppointment(from: DockAppointmentState, to: DockAppointmentState): boolean {
  return DOCK_MOVES[from].includes(to);
}

export function assertAppointmentMove(from: DockAppointmentState, to: DockAppointmentState): void {
  if (!mayMoveAppointment(from, to)) {
    throw new AppError("state_conflict", `a dock appointment that is ${from} cannot become ${to}`, { extras: { currentState: from } });
  }
}

/** A hold is active until it is resolved, once. */
export function assertHoldActive(state: QualityHoldState): void {
  if (state !== "active") throw new AppError("state_conflict", `the quality hold is already ${state}`, { extras: { currentState: state } });
}

/** A continuity run is completed once. */
export function assertRunInProgress(state: ContinuityRunState): void {
  if (state !== "in_progress") throw new AppError("state_conflict", `the continuity run is already ${state}`, { extras: { currentState: state } });
}
