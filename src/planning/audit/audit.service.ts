// The one write path of the planning audit trail. Called inside the write's own
// transaction, so a write and its audit row commit or roll back together.
import { and, asc, eq } from "drizzle-orm";
import { db, type Querier } from "../../platform/db/transactions.ts";
import { appendEntry } from "../../platform/db/history.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { planningAudit } from "./audit.tables.ts";
import { appendEvent as appendOutboxEvent, type StreamKind } from "../../platform/outbox/outbox.ts";

export interface AuditEntry {
  projectId: string | null;
  recordType: string;
  recordId: string;
  /** What happened: `created`, `updated`, `linked`, `reviewed`, `applied`, … */
  action: string;
  /** The change itself (fields set, decision, conflicts); never secrets. */
  data?: Record<string, unknown>;
}

/**
 * The audited writes the live event stream (GET /api/planning/events/stream) publishes, by record
 * type: the plan itself. Personal and administrative records (reminder channels, destinations,
 * calendar feeds, the notification outbox) and file access (artifacts) are not published.
 */
const PUBLISHED: Record<string, StreamKind> = {
  project: "planning.project.changed",
  meetings: "planning.meeting.changed",
  minutes: "planning.meeting.changed",
  change_set: "planning.change_set.changed",
  dependency: "planning.dependency.changed",
  departments: "planning.record.changed",
  calendars: "planning.record.changed",
  work: "planning.record.changed",
  requirements: "planning.record.changed",
  risks: "planning.record.changed",
  gates: "planning.record.changed",
  reminders: "planning.record.changed",
  resource_link: "planning.record.changed",
  import: "planning.record.changed",
};

function publishedKind(recordType: string): StreamKind | undefined {
  return PUBLISHED[recordType] ?? (recordType.startsWith("canonical_") ? "planning.record.changed" : undefined);
}

/**
 * One audit row: a new id, the context's actor and server time (appendEntry), in its open
 * transaction; a write of the plan inside a project also appends its domain event to the outbox
 * there (the live stream's source: which record of which project changed and how, never the change).
 */
export async function recordAudit(ctx: TenantCtx, e: AuditEntry): Promise<void> {
  await appendEntry(ctx, planningAudit, { projectId: e.projectId, recordType: e.recordType, recordId: e.recordId, action: e.action, data: e.data ?? {} });
  const kind = publishedKind(e.recordType);
  if (kind === undefined || e.projectId === null) return;
  const meetingId = e.recordType === "meetings" ? e.recordId : typeof e.data?.meetingId === "string" ? e.data.meetingId : undefined;
  await appendOutboxEvent(ctx, {
    kind,
    aggregateId: e.recordId,
    occurredAt: ctx.nowIso,
    data: { projectId: e.projectId, recordType: e.recordType, recordId: e.recordId, action: e.action, ...(meetingId ? { meetingId } : {}) },
  });
}

/** A record's audit trail, oldest first (for tests and read models). */
export async function auditOf(ctx: TenantCtx, recordId: string) {
  return db(ctx).select().from(planningAudit).where(and(eq(planningAudit.recordId, recordId))).orderBy(asc(planningAudit.recordedAt), asc(planningAudit.id));
}

/** The audit trail of one record of a type, oldest first, as a query a read model runs in its own snapshot. */
export function auditTrailQuery(q: Querier, recordType: string, recordId: string) {
  return q
    .select()
    .from(planningAudit)
    .where(and(eq(planningAudit.recordType, recordType), eq(planningAudit.recordId, recordId)))
    .orderBy(asc(planningAudit.recordedAt), asc(planningAudit.id));
}
