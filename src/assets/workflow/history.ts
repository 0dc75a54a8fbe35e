// The case's durable history: one append-only row per state change and per refused
// approval, its actor and time always the request's (session subject, server clock).
// A platform event log (src/platform/db/history.ts) whose own column is the case's
// version; it is read oldest first and publishes the version before the kind.
import type { z } from "@hono/zod-openapi";
import type { Querier } from "../../platform/db/transactions.ts";
import { appendEvent, historyOf, toEventDto } from "../../platform/db/history.ts";
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
  await appendEvent(ctx, workflowCaseHistory, caseId, kind, reason, data, { version });
}

/** The case's history, oldest first (ids are time-ordered, so entries of one instant keep their order). */
export function historyQuery(q: Querier, caseId: string) {
  return historyOf(q, workflowCaseHistory, caseId, { oldestFirst: true });
}

export function toHistoryDto(r: HistoryRow): z.infer<typeof HistoryEntry> {
  const { id, ...event } = toEventDto(r);
  return { id, version: r.version, ...event };
}
