// The case's durable history: one append-only row per state change and per refused
// approval, its actor and time always the request's (session subject, server clock).
import { asc, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { writer, type Querier } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { workflowCaseHistory } from "./workflow.tables.ts";
import type { HistoryEntry } from "./workflow.schemas.ts";

type HistoryRow = typeof workflowCaseHistory.$inferSelect;
export type HistoryKind = HistoryRow["kind"];

export async function appendHistory(
  ctx: TenantCtx,
  caseId: string,
  version: number,
  kind: HistoryKind,
  reason: string | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  await writer(ctx).insert(workflowCaseHistory).values({ id: ctx.deps.newId(), caseId, version, kind, actorId: ctx.actorId, recordedAt: ctx.nowIso, reason, data });
}

/** The case's history, oldest first (ids are time-ordered, so entries of one instant keep their order). */
export function historyQuery(q: Querier, caseId: string) {
  return q.select().from(workflowCaseHistory).where(eq(workflowCaseHistory.caseId, caseId)).orderBy(asc(workflowCaseHistory.recordedAt), asc(workflowCaseHistory.id));
}

export function toHistoryDto(r: HistoryRow): z.infer<typeof HistoryEntry> {
  return { id: r.id, version: r.version, kind: r.kind, actorId: r.actorId, recordedAt: r.recordedAt, reason: r.reason, data: r.data };
}
