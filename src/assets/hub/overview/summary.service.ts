// GET /hub/summary and GET /hub/overview: exact counts from the database, read in
// one snapshot with what the overview lists beside them, never derived from a page.
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { readSnapshot, type Querier } from "../../../platform/db/transactions.ts";
import { dockAppointments } from "../dock/dock.tables.ts";
import { hubTasks, HUB_TASK_TYPES } from "../tasks/tasks.tables.ts";
import { qualityHolds } from "../holds/holds.tables.ts";
import { OPEN_TASK_STATES } from "../hub.states.ts";
import { toHubTaskDto } from "../tasks/tasks.service.ts";
import { toDockAppointmentDto } from "../dock/dock.service.ts";
import { toQualityHoldDto } from "../holds/holds.service.ts";
import { OVERVIEW_LIST_MAX, type HubSummaryDto } from "./summary.schemas.ts";

/** Appointments still to be dealt with. */
const UNCLOSED_APPOINTMENT_STATES = ["scheduled", "arrived", "loading", "unloading"] as const;

/**
 * Every count of the summary in one grouped read of the open tasks, served by
 * hub_tasks_counts_idx (status, task_type, urgent) as a covering index scan.
 */
export function openTaskCountsQuery(q: Querier) {
  return q
    .select({ status: hubTasks.status, taskType: hubTasks.taskType, urgent: hubTasks.urgent, n: count() })
    .from(hubTasks)
    .where(inArray(hubTasks.status, [...OPEN_TASK_STATES]))
    .groupBy(hubTasks.status, hubTasks.taskType, hubTasks.urgent);
}

type CountRow = Awaited<ReturnType<typeof openTaskCountsQuery>>[number];

function toSummary(rows: CountRow[], asOf: string): HubSummaryDto {
  const perType = Object.fromEntries(HUB_TASK_TYPES.map((t) => [t, 0])) as Record<(typeof HUB_TASK_TYPES)[number], number>;
  let openTasks = 0;
  let unassigned = 0;
  let urgentUnassigned = 0;
  for (const r of rows) {
    const n = Number(r.n);
    perType[r.taskType] += n;
    openTasks += n;
    if (r.status === "open") {
      unassigned += n;
      if (r.urgent) urgentUnassigned += n;
    }
  }
  return { ...perType, openTasks, unassigned, urgentUnassigned, asOf };
}

export async function getHubSummary(ctx: RequestCtx): Promise<HubSummaryDto> {
  const [rows] = await readSnapshot(ctx, (q) => [openTaskCountsQuery(q)] as const);
  return toSummary(rows, ctx.deps.clock.now().toISOString());
}

export async function getHubOverview(ctx: RequestCtx) {
  const [counts, appointments, holds, urgent] = await readSnapshot(ctx, (q) => [
    openTaskCountsQuery(q),
    q
      .select()
      .from(dockAppointments)
      .where(inArray(dockAppointments.status, [...UNCLOSED_APPOINTMENT_STATES]))
      .orderBy(asc(dockAppointments.scheduledAt), asc(dockAppointments.id))
      .limit(OVERVIEW_LIST_MAX),
    q.select().from(qualityHolds).where(eq(qualityHolds.status, "active")).orderBy(desc(qualityHolds.placedAt), desc(qualityHolds.id)).limit(OVERVIEW_LIST_MAX),
    q
      .select()
      .from(hubTasks)
      .where(and(eq(hubTasks.status, "open"), eq(hubTasks.urgent, true)))
      .orderBy(sql`${hubTasks.dueAt} IS NULL`, asc(hubTasks.dueAt), asc(hubTasks.createdAt), asc(hubTasks.id))
      .limit(OVERVIEW_LIST_MAX),
  ] as const);
  const asOf = ctx.deps.clock.now().toISOString();
  return {
    summary: toSummary(counts, asOf),
    nextDockAppointments: appointments.map(toDockAppointmentDto),
    activeHolds: holds.map(toQualityHoldDto),
    urgentUnassigned: urgent.map(toHubTaskDto),
    asOf,
  };
}
