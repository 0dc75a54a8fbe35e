// Contract §9 work-order states: open → in_progress ↔ paused → completed;
// open/paused → cancelled. POST /work-orders/{id}/start both starts and resumes.
import { AppError } from "../../platform/errors/app-error.ts";

export const WORK_ORDER_STATUSES = ["open", "in_progress", "paused", "completed", "cancelled"] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

export const WORK_ORDER_KINDS = ["repair", "inspection", "calibration", "preventive"] as const;
/** The steps a work order's history records (work_order_events.kind). */
export const WORK_ORDER_EVENT_KINDS = ["created", "started", "resumed", "paused", "reassigned", "completed", "cancelled"] as const;
export const OUTCOMES = ["fixed", "not_fixed", "replaced", "calibrated", "passed", "failed", "no_fault_found"] as const;

/** Statuses in which an order is still to be done (the summary's openWorkOrders). */
export const UNFINISHED: WorkOrderStatus[] = ["open", "in_progress", "paused"];

const MOVES: Record<WorkOrderStatus, WorkOrderStatus[]> = {
  open: ["in_progress", "cancelled"],
  in_progress: ["paused", "completed"],
  paused: ["in_progress", "completed", "cancelled"],
  completed: [],
  cancelled: [],
};

export function mayMoveWorkOrder(from: WorkOrderStatus, to: WorkOrderStatus): boolean {
  return MOVES[from].includes(to);
}

/** 409 state_conflict naming the current status unless the order may go from → to. */
export function assertWorkOrderMove(from: WorkOrderStatus, to: WorkOrderStatus, action: string): void {
  if (!mayMoveWorkOrder(from, to)) {
    throw new AppError("state_conflict", `cannot ${action} a work order that is ${from}`, { extras: { workOrderStatus: from } });
  }
}

export function isOverdue(r: { status: string; dueAt: string | null }, nowIso: string): boolean {
  return UNFINISHED.includes(r.status as WorkOrderStatus) && r.dueAt !== null && r.dueAt < nowIso;
}
