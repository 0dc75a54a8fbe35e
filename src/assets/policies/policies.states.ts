// Policy states (contract §8, §13): draft → in_review → active | rejected;
// active → superseded when another policy of its type is approved.
import { AppError } from "../../platform/errors/app-error.ts";

export const POLICY_TYPES = ["identity", "custody", "depreciation", "permissions"] as const;
export const POLICY_STATES = ["draft", "in_review", "active", "rejected", "superseded"] as const;
export type PolicyState = (typeof POLICY_STATES)[number];

/** The steps a policy's history records (policy_events.kind). */
export const POLICY_EVENT_KINDS = ["created", "revised", "submitted", "approved", "rejected", "superseded"] as const;

const MOVES: Record<PolicyState, PolicyState[]> = {
  draft: ["in_review"],
  in_review: ["active", "rejected"],
  active: ["superseded"],
  rejected: [],
  superseded: [],
};

export function mayMovePolicy(from: PolicyState, to: PolicyState): boolean {
  return MOVES[from].includes(to);
}

/** 409 state_conflict naming the current state unless `from` may go to `to`. */
export function assertPolicyMove(from: PolicyState, to: PolicyState, action: string): void {
  if (!mayMovePolicy(from, to)) throw new AppError("state_conflict", `cannot ${action} a policy that is ${from}`);
}
