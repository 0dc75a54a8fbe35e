// The history of the hub's companion records (dock appointments, quality holds,
// replenishment rules, continuity runs): one row per step, actor and server time
// from the context, written in the command's transaction.
import { desc, eq } from "drizzle-orm";
import { writer, type Querier } from "../../platform/db/transactions.ts";
import { insertRow } from "../../platform/db/prepared.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { hubRecordEvents } from "./hub.tables.ts";

export type HubRecordType = (typeof hubRecordEvents.$inferSelect)["recordType"];
type RecordEventRow = typeof hubRecordEvents.$inferSelect;

export async function addRecordEvent(
  ctx: TenantCtx,
  recordType: HubRecordType,
  recordId: string,
  kind: string,
  reason: string | null,
  data: Record<string, unknown>,
): Promise<void> {
  await insertRow(writer(ctx), hubRecordEvents, { id: ctx.deps.newId(), recordId, recordType, kind, actorId: ctx.actorId, recordedAt: ctx.nowIso, reason, data });
}

/** A record's history, newest first (a snapshot query). */
export function recordEventsQuery(q: Querier, recordId: string) {
  return q.select().from(hubRecordEvents).where(eq(hubRecordEvents.recordId, recordId)).orderBy(desc(hubRecordEvents.recordedAt), desc(hubRecordEvents.id));
}

export function toRecordEventDto(r: RecordEventRow) {
  return { id: r.id, kind: r.kind, actorId: r.actorId, recordedAt: r.recordedAt, reason: r.reason, data: r.data };
}
