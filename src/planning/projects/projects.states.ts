// Contract §9, planning project: concept → active → readiness → handed_off →
// archived; open states ↔ paused; open states → cancelled → archived.
import { AppError } from "../../platform/errors/app-error.ts";
import type { PROJECT_STATES } from "./projects.tables.ts";

export type ProjectState = (typeof PROJECT_STATES)[number];

/** States in which a project is being planned; collection writes are refused in the others. */
export const OPEN_STATES: readonly ProjectState[] = ["concept", "active", "readiness"];
const FORWARD: Partial<Record<ProjectState, ProjectState>> = { concept: "active", active: "readiness", readiness: "handed_off", handed_off: "archived", cancelled: "archived" };

/**
 * Whether `from` may go to `to`. A paused project resumes to the state it was
 * paused from (and only that one), or is cancelled.
 */
export function mayMove(from: ProjectState, to: ProjectState, pausedFrom: ProjectState | null): boolean {
  if (FORWARD[from] === to) return true;
  if (OPEN_STATES.includes(from)) return to === "paused" || to === "cancelled";
  if (from === "paused") return to === pausedFrom || to === "cancelled";
  return false;
}

export function assertProjectMove(from: ProjectState, to: ProjectState, pausedFrom: ProjectState | null): void {
  if (!mayMove(from, to, pausedFrom)) {
    const resume = from === "paused" && pausedFrom ? ` (a paused project resumes to ${pausedFrom})` : "";
    throw new AppError("state_conflict", `the project is ${from}; it cannot move to ${to}${resume}`, { extras: { currentState: from } });
  }
}

/** Collection, dependency and link writes need a project that is still being planned (open or paused). */
export function assertPlanning(state: ProjectState): void {
  if (!OPEN_STATES.includes(state) && state !== "paused") {
    throw new AppError("state_conflict", `the project is ${state}; its plan can no longer change`, { extras: { currentState: state } });
  }
}
