// Contract §9 audit states: planned → counting → in_review → posted. Counting
// starts with POST /audits/{id}/start, review with POST /audits/{id}/close-counting.
import { AppError } from "../../platform/errors/app-error.ts";

export const AUDIT_STATUSES = ["planned", "counting", "in_review", "posted"] as const;

/** The steps an audit's history records (audit_events.kind). */
export const AUDIT_EVENT_KINDS = ["created", "started", "counting_closed", "reviewed", "posted"] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

export const RESULT_KINDS = ["found", "missing", "unexpected", "wrong_location", "condition_change"] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

export const REVIEW_STATES = ["not_needed", "pending", "accepted", "rejected"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

const MOVES: Record<AuditStatus, AuditStatus[]> = {
  planned: ["counting"],
  counting: ["in_review"],
  in_review: ["posted"],
  posted: [],
};

export function mayMoveAudit(from: AuditStatus, to: AuditStatus): boolean {
  return MOVES[from].includes(to);
}

/** 409 state_conflict naming the current state unless the audit may go from → to. */
export function assertAuditMove(from: AuditStatus, to: AuditStatus, action: string): void {
  if (!mayMoveAudit(from, to)) throw new AppError("state_conflict", `cannot ${action} an audit that is ${from}`, { extras: { auditStatus: from } });
}

/** For actions that keep the state (counts, reviews): 409 naming the current state unless it is `allowed`. */
export function requireAuditStatus(status: AuditStatus, allowed: AuditStatus, action: string): void {
  if (status !== allowed) throw new AppError("state_conflict", `cannot ${action} an audit that is ${status}; it must be ${allowed}`, { extras: { auditStatus: status } });
}
