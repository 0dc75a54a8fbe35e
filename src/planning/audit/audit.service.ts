// The one write path of the planning audit trail. Called inside the write's own
// transaction, so a write and its audit row commit or roll back together.
import { and, asc, eq } from "drizzle-orm";
import { db, type Querier } from "../../platform/db/transactions.ts";
import { appendEntry } from "../../platform/db/history.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { planningAudit } from "./audit.tables.ts";

export interface AuditEntry {
  projectId: string | null;
  recordType: string;
  recordId: string;
  /** What happened: `created`, `updated`, `linked`, `reviewed`, `applied`, … */
  action: string;
  /** The change itself (fields set, decision, conflicts); never secrets. */
  data?: Record<string, unknown>;
}

/** One audit row: a new id, the context's actor and server time (appendEntry), in its open transaction. */
export async function recordAudit(ctx: TenantCtx, e: AuditEntry): Promise<void> {
  await appendEntry(ctx, planningAudit, { projectId: e.projectId, recordType: e.recordType, recordId: e.recordId, action: e.action, data: e.data ?? {} });
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
