// The one write path of the planning audit trail. Called inside the write's own
// transaction, so a write and its audit row commit or roll back together.
import { and, asc, eq } from "drizzle-orm";
import { db, writer } from "../../platform/db/transactions.ts";
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

export async function recordAudit(ctx: TenantCtx, e: AuditEntry): Promise<void> {
  await writer(ctx)
    .insert(planningAudit)
    .values({ id: ctx.deps.newId(), projectId: e.projectId, recordType: e.recordType, recordId: e.recordId, action: e.action, actorId: ctx.actorId, recordedAt: ctx.nowIso, data: e.data ?? {} });
}

/** A record's audit trail, oldest first (for tests and read models). */
export async function auditOf(ctx: TenantCtx, recordId: string) {
  return db(ctx).select().from(planningAudit).where(and(eq(planningAudit.recordId, recordId))).orderBy(asc(planningAudit.recordedAt), asc(planningAudit.id));
}
