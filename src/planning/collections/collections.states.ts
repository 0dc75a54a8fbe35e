// States of the collection records the spec gives states to. The spec names
// requirement and meeting states but not their moves; these tables are our
// decision (README). Work items get a small lifecycle of their own, which my-work
// and reminders need ("terminal work state").
import { AppError } from "../../platform/errors/app-error.ts";

export const STATE_MOVES = {
  work: {
    open: ["in_progress", "done", "cancelled"],
    in_progress: ["open", "done", "cancelled"],
    done: ["in_progress"],
    cancelled: [],
  },
  requirements: {
    draft: ["assigned", "waived", "cancelled"],
    assigned: ["in_progress", "waived", "expired", "cancelled"],
    in_progress: ["submitted", "waived", "expired", "cancelled"],
    submitted: ["accepted", "revision_requested"],
    revision_requested: ["in_progress", "submitted", "waived", "expired", "cancelled"],
    accepted: [],
    waived: [],
    expired: [],
    cancelled: [],
  },
  meetings: {
    draft: ["scheduled", "cancelled"],
    scheduled: ["in_progress", "cancelled"],
    in_progress: ["completed", "cancelled"],
    completed: [],
    cancelled: [],
  },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type StatefulCollection = keyof typeof STATE_MOVES;

/** States in which a record still asks something of its person (my-work lists these). */
export const OPEN_WORK_STATES = ["open", "in_progress"] as const;
export const OPEN_REQUIREMENT_STATES = ["draft", "assigned", "in_progress", "submitted", "revision_requested"] as const;
export const UPCOMING_MEETING_STATES = ["draft", "scheduled", "in_progress"] as const;

export function assertRecordMove(collection: StatefulCollection, what: string, from: string, to: string): void {
  const allowed = (STATE_MOVES[collection] as Record<string, readonly string[]>)[from] ?? [];
  if (!allowed.includes(to)) {
    throw new AppError("state_conflict", `the ${what} is ${from}; it cannot move to ${to}${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`, {
      extras: { currentState: from },
    });
  }
}
