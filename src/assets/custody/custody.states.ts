// Contract §9 checkout states. Acknowledgement, extension and transfer keep
// `checked_out`; overdue is derived from dueAt, never stored.
import { AppError } from "../../platform/errors/app-error.ts";

export const CHECKOUT_STATES = ["reserved", "checked_out", "returned", "cancelled"] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

export const HOLDER_KINDS = ["user", "party", "location"] as const;

/** The steps a checkout's history records (checkout_events.kind). */
export const CHECKOUT_EVENT_KINDS = ["reserved", "checked_out", "acknowledged", "extended", "transferred", "returned", "cancelled", "expired", "escalated", "written_off"] as const;

const MOVES: Record<CheckoutState, CheckoutState[]> = {
  reserved: ["checked_out", "cancelled"],
  checked_out: ["returned"],
  returned: [],
  cancelled: [],
};

export function mayMoveCheckout(from: CheckoutState, to: CheckoutState): boolean {
  return MOVES[from].includes(to);
}

export function assertCheckoutMove(from: CheckoutState, to: CheckoutState, action: string): void {
  if (!mayMoveCheckout(from, to)) throw new AppError("state_conflict", `cannot ${action} a checkout that is ${from}`);
}

/** For actions that keep the state (acknowledge, extend, transfer): 409 unless in an allowed state. */
export function requireState(state: CheckoutState, allowed: CheckoutState[], action: string): void {
  if (!allowed.includes(state)) throw new AppError("state_conflict", `cannot ${action} a checkout that is ${state}`);
}

export function isOverdue(r: { state: string; dueAt: string | null }, nowIso: string): boolean {
  return r.state === "checked_out" && r.dueAt !== null && r.dueAt < nowIso;
}
