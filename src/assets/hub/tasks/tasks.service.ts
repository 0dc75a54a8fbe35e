// Hub tasks: create, list, assign (one or up to 100, all or nothing), advance and
// cancel. Every command runs in one transaction and writes one actor-attributed
// hub_task_events row per task it changes; completing a putaway or picking task
// moves the items of its item lines through the kernel in the same transaction.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound, type FieldError } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { appendEvent as appendOutboxEvent } from "../../../platform/outbox/outbox.ts";
import { db, readSnapshot, withTx, writer } from "../../../platform/db/transactions.ts";
import { insertRow } from "../../../platform/db/prepared.ts";
import { loadOr404, saveVersion } from "../../../platform/db/records.ts";
import { appendEvent, historyOf, toEventDto } from "../../../platform/db/history.ts";
import { newRecordMeta, type TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate } from "../../../platform/paging/paging.ts";
import { memberships } from "../../../platform/auth/auth.tables.ts";
import { effectiveCapabilities } from "../../../platform/auth/capabilities.ts";
import { loadCapabilityConfig } from "../../../platform/auth/membership.ts";
import { activeLocationExists, requireLocation } from "../../locations/index.ts";
import { requireModel } from "../../catalogue/index.ts";
import { changeItem, findItem, requireItem } from "../../kernel/index.ts";
import { immobility } from "../../kernel/index.ts";
import { moveContents } from "../../kernel/index.ts";
import { recordMovement } from "../../kernel/index.ts";
import { hubTaskEvents, hubTasks, type HubTaskLine } from "./tasks.tables.ts";
import { assertTaskMove, isOpenTask, nextTaskState, OPEN_TASK_STATES } from "../hub.states.ts";
import type {
  AdvanceHubTask,
  AssignHubTask,
  AssignHubTasks,
  CancelHubTask,
  CreateHubTask,
  HubTaskDto,
  ListHubTasksQuery,
} from "./tasks.schemas.ts";

export type HubTaskRow = typeof hubTasks.$inferSelect;

/** Task types whose completion moves the items of their item lines to the target location. */
const MOVING_TYPES = new Set<HubTaskRow["taskType"]>(["putaway", "picking"]);

export function toHubTaskDto(r: HubTaskRow): HubTaskDto {
  return {
    id: r.id,
    taskType: r.taskType,
    title: r.title,
    status: r.status,
    urgent: r.urgent,
    dueAt: r.dueAt,
    locationId: r.locationId,
    targetLocationId: r.targetLocationId,
    lines: r.lines.map((l) => ("itemId" in l ? { itemId: l.itemId } : { modelId: l.modelId, quantity: l.quantity })),
    assigneeUserId: r.assigneeUserId,
    assignedAt: r.assignedAt,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    cancelledAt: r.cancelledAt,
    replenishmentRuleId: r.replenishmentRuleId,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

/** Case-insensitive prefix range of a lower()-indexed column (served by its expression index). */
export function prefixOf(column: SQL, text: string): SQL {
  return sql`(lower(${column}) >= lower(${text}) AND lower(${column}) < lower(${text}) || char(1114111))`;
}

// ---------------------------------------------------------------- reads

export async function listHubTasks(ctx: RequestCtx, q: ListHubTasksQuery) {
  const filters = new FilterSet()
    .add("q", q.q, (v) => prefixOf(sql`${hubTasks.title}`, v))
    .add("status", q.status, (v) => inArray(hubTasks.status, v))
    .add("taskType", q.taskType, (v) => inArray(hubTasks.taskType, v));
  const { items: tasks, ...page } = await listByUpdate(ctx, hubTasks, q, filters, toHubTaskDto);
  // Contract §7: this list's property is `tasks`.
  return { tasks, ...page };
}

export async function getHubTask(ctx: RequestCtx, id: string) {
  const [rows, events] = await readSnapshot(ctx, (q) => [
    q.select().from(hubTasks).where(eq(hubTasks.id, id)),
    historyOf(q, hubTaskEvents, id),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("hub task");
  return { ...toHubTaskDto(row), events: events.map((e) => toEventDto(e)) };
}

// ---------------------------------------------------------------- shared steps

export type NewTask = Pick<HubTaskRow, "taskType" | "title" | "urgent" | "dueAt" | "locationId" | "targetLocationId" | "lines" | "replenishmentRuleId">;

/** The live streams' `hub.task.changed` event (board and summary), in the change's transaction. */
async function taskChanged(ctx: TenantCtx, row: HubTaskRow): Promise<void> {
  await appendOutboxEvent(ctx, {
    kind: "hub.task.changed",
    aggregateId: row.id,
    occurredAt: ctx.nowIso,
    data: { taskId: row.id, taskType: row.taskType, status: row.status, assigneeUserId: row.assigneeUserId, version: row.version },
  });
}

/** Inserts an open task authored by the context's actor, with its `created` event (in the open transaction). */
export async function insertTask(ctx: TenantCtx, fields: NewTask): Promise<HubTaskRow> {
  const row: HubTaskRow = {
    ...newRecordMeta(ctx),
    ...fields,
    status: "open",
    assigneeUserId: null,
    assignedAt: null,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
  };
  await insertRow(writer(ctx), hubTasks, row);
  await appendEvent(ctx, hubTaskEvents, row.id, "created", null, { taskType: row.taskType, replenishmentRuleId: row.replenishmentRuleId });
  await taskChanged(ctx, row);
  return row;
}

/**
 * Why `userId` may not be assigned hub tasks, or null when they may: they must be
 * an active member whose effective capabilities (role defaults with the partner's
 * overrides, live grants) include hub_assignee. Read in the open transaction.
 */
async function assigneeRefusal(ctx: TenantCtx, userId: string): Promise<string | null> {
  const q = db(ctx);
  const member = (await q.select({ role: memberships.role, status: memberships.status }).from(memberships).where(eq(memberships.userId, userId)))[0];
  if (!member || member.status !== "active") return `${userId} is not an active member of this partner`;
  const cfg = await loadCapabilityConfig(q);
  if (!effectiveCapabilities(cfg, userId, member.role, ctx.nowIso).has("hub_assignee")) {
    return `${userId} does not hold the hub_assignee capability and cannot be assigned hub tasks`;
  }
  return null;
}

/** Assigns one loaded task: open becomes assigned; assigned and in_progress keep their state with the new assignee. */
async function applyAssignment(ctx: TenantCtx, row: HubTaskRow, assigneeUserId: string, reason: string): Promise<HubTaskRow> {
  const next = await saveVersion(
    writer(ctx),
    hubTasks,
    row,
    { status: row.status === "open" ? "assigned" : row.status, assigneeUserId, assignedAt: ctx.nowIso },
    ctx.nowIso,
  );
  await appendEvent(ctx, hubTaskEvents, row.id, "assigned", reason, { assigneeUserId, previousAssigneeUserId: row.assigneeUserId, fromState: row.status, toState: next.status });
  await taskChanged(ctx, next);
  return next;
}

/** Why an assignment of this task is refused (409), or null. */
function assignmentConflict(row: HubTaskRow, assigneeUserId: string): string | null {
  if (!isOpenTask(row.status)) return `task ${row.id} is ${row.status}`;
  if (row.assigneeUserId === assigneeUserId) return `task ${row.id} is already assigned to ${assigneeUserId}`;
  return null;
}

// ---------------------------------------------------------------- commands

export async function createHubTask(ctx: RequestCtx, input: z.output<typeof CreateHubTask>): Promise<HubTaskDto> {
  if (MOVING_TYPES.has(input.taskType) && input.targetLocationId === undefined) {
    throw invalid("/body/targetLocationId", `required for a ${input.taskType} task: where its items go`);
  }
  const seen = new Map<string, number>();
  input.lines.forEach((l, i) => {
    if (!("itemId" in l)) return;
    if (seen.has(l.itemId)) throw invalid(`/body/lines/${i}/itemId`, `item ${l.itemId} is already in line ${seen.get(l.itemId)}`);
    seen.set(l.itemId, i);
  });
  return withTx(ctx, async (ctx) => {
    if (input.locationId !== undefined) await requireLocation(ctx, input.locationId, "/body/locationId");
    if (input.targetLocationId !== undefined) await requireLocation(ctx, input.targetLocationId, "/body/targetLocationId");
    const lines: HubTaskLine[] = [];
    for (const [i, l] of input.lines.entries()) {
      if ("itemId" in l) {
        await requireItem(ctx, l.itemId, `/body/lines/${i}/itemId`);
        lines.push({ itemId: l.itemId });
      } else {
        if (l.modelId !== undefined) await requireModel(ctx, l.modelId, `/body/lines/${i}/modelId`);
        lines.push({ modelId: l.modelId ?? null, quantity: l.quantity });
      }
    }
    const row = await insertTask(ctx, {
      taskType: input.taskType,
      title: input.title,
      urgent: input.urgent,
      dueAt: input.dueAt ?? null,
      locationId: input.locationId ?? null,
      targetLocationId: input.targetLocationId ?? null,
      lines,
      replenishmentRuleId: null,
    });
    return toHubTaskDto(row);
  });
}

/**
 * Bulk assignment, all or nothing: repeated ids and an assignee who may not be
 * assigned are 400; unknown ids (another partner's are unknown here) are 404;
 * completed or cancelled tasks, or tasks already assigned to this assignee, are
 * 409. Each problem names every failing id (`failedTaskIds`, and `errors` paths
 * into taskIds). Nothing is written unless every task passes.
 */
export async function assignHubTasks(ctx: RequestCtx, input: z.output<typeof AssignHubTasks>): Promise<{ tasks: HubTaskDto[] }> {
  const firstAt = new Map<string, number>();
  const duplicates: FieldError[] = [];
  const duplicateIds = new Set<string>();
  input.taskIds.forEach((id, i) => {
    const first = firstAt.get(id);
    if (first === undefined) firstAt.set(id, i);
    else {
      duplicates.push({ path: `/body/taskIds/${i}`, message: `duplicate of /body/taskIds/${first} (${id})` });
      duplicateIds.add(id);
    }
  });
  return withTx(ctx, async (ctx) => {
    const refusal = await assigneeRefusal(ctx, input.assigneeUserId);
    const shape: FieldError[] = [...duplicates, ...(refusal ? [{ path: "/body/assigneeUserId", message: refusal }] : [])];
    if (shape.length > 0) {
      const detail = [
        duplicateIds.size > 0 ? `task ids repeated: ${[...duplicateIds].join(", ")}` : null,
        refusal,
      ].filter(Boolean).join("; ");
      throw new AppError("validation_failed", `nothing was assigned: ${detail}`, { errors: shape, extras: { failedTaskIds: [...duplicateIds] } });
    }

    const rows = await writer(ctx).select().from(hubTasks).where(inArray(hubTasks.id, input.taskIds));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = input.taskIds.map((id, i) => ({ id, i })).filter((x) => !byId.has(x.id));
    if (missing.length > 0) {
      throw new AppError("not_found", `nothing was assigned: hub tasks not found: ${missing.map((m) => m.id).join(", ")}`, {
        errors: missing.map((m) => ({ path: `/body/taskIds/${m.i}`, message: `hub task ${m.id} not found` })),
        extras: { failedTaskIds: missing.map((m) => m.id) },
      });
    }
    const conflicts = input.taskIds
      .map((id, i) => ({ id, i, why: assignmentConflict(byId.get(id)!, input.assigneeUserId) }))
      .filter((c): c is { id: string; i: number; why: string } => c.why !== null);
    if (conflicts.length > 0) {
      throw new AppError("state_conflict", `nothing was assigned: ${conflicts.map((c) => c.why).join("; ")}`, {
        errors: conflicts.map((c) => ({ path: `/body/taskIds/${c.i}`, message: c.why })),
        extras: { failedTaskIds: conflicts.map((c) => c.id) },
      });
    }

    const tasks: HubTaskDto[] = [];
    for (const id of input.taskIds) tasks.push(toHubTaskDto(await applyAssignment(ctx, byId.get(id)!, input.assigneeUserId, input.reason)));
    return { tasks };
  });
}

/** Single assignment: the same assignee and state rules as the bulk command. */
export async function assignHubTask(ctx: RequestCtx, id: string, input: z.output<typeof AssignHubTask>): Promise<HubTaskDto> {
  return withTx(ctx, async (ctx) => {
    const refusal = await assigneeRefusal(ctx, input.assigneeUserId);
    if (refusal) throw invalid("/body/assigneeUserId", refusal);
    const row = await loadOr404(writer(ctx), hubTasks, id, "hub task");
    assertVersion("hub task", row, input.expectedVersion);
    if (!isOpenTask(row.status)) assertTaskMove(row.status, "assigned", "assign");
    const conflict = assignmentConflict(row, input.assigneeUserId);
    if (conflict) throw new AppError("state_conflict", conflict, { extras: { currentState: row.status } });
    return toHubTaskDto(await applyAssignment(ctx, row, input.assigneeUserId, input.reason));
  });
}

/**
 * The next state of §9: assigned → in_progress → completed (an open task is
 * assigned first). Completing a putaway or picking task moves each item of its
 * item lines to the target location.
 */
export async function advanceHubTask(ctx: RequestCtx, id: string, input: z.output<typeof AdvanceHubTask>): Promise<HubTaskDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadOr404(writer(ctx), hubTasks, id, "hub task");
    assertVersion("hub task", row, input.expectedVersion);
    const to = nextTaskState(row.status);
    const reason = input.reason || null;
    const stamp: Partial<HubTaskRow> = to === "in_progress" ? { startedAt: ctx.nowIso } : { completedAt: ctx.nowIso };
    const next = await saveVersion(writer(ctx), hubTasks, row, { status: to, ...stamp }, ctx.nowIso);
    let moved = 0;
    if (to === "completed" && MOVING_TYPES.has(row.taskType)) moved = await moveTaskItems(ctx, row, reason);
    await appendEvent(ctx, hubTaskEvents, id, to === "completed" ? "completed" : "started", reason, { fromState: row.status, toState: to, ...(to === "completed" ? { itemsMoved: moved } : {}) });
    await taskChanged(ctx, next);
    return toHubTaskDto(next);
  });
}

/** Open, assigned and in-progress tasks may be cancelled; nothing moves. */
export async function cancelHubTask(ctx: RequestCtx, id: string, input: z.output<typeof CancelHubTask>): Promise<HubTaskDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadOr404(writer(ctx), hubTasks, id, "hub task");
    assertVersion("hub task", row, input.expectedVersion);
    assertTaskMove(row.status, "cancelled", "cancel");
    const next = await saveVersion(writer(ctx), hubTasks, row, { status: "cancelled", cancelledAt: ctx.nowIso }, ctx.nowIso);
    await appendEvent(ctx, hubTaskEvents, id, "cancelled", input.reason || null, { fromState: row.status });
    await taskChanged(ctx, next);
    return toHubTaskDto(next);
  });
}

/**
 * Puts each item of the task's item lines at the target location (out of any
 * container), one `moved` movement each with data.taskId; its contents follow.
 * An item already there, loose, is left as it is. Any item that cannot move
 * refuses the whole completion (409 naming it).
 */
async function moveTaskItems(ctx: TenantCtx, task: HubTaskRow, reason: string | null): Promise<number> {
  const target = task.targetLocationId;
  if (target === null) return 0;
  if (!(await activeLocationExists(ctx, target))) {
    throw new AppError("state_conflict", `the task's target location ${target} is archived; the items cannot be put there`);
  }
  let moved = 0;
  for (const line of task.lines) {
    if (!("itemId" in line)) continue;
    const item = await findItem(ctx, line.itemId);
    if (!item) throw new AppError("state_conflict", `item ${line.itemId} no longer exists`, { extras: { itemId: line.itemId } });
    const blocked = await immobility(ctx, item);
    if (blocked) throw new AppError("state_conflict", `item ${item.id} is ${blocked} and cannot be moved by this task`, { extras: { itemId: item.id } });
    if (item.locationId === target && item.containerId === null) continue;
    await changeItem(ctx, item.id, { locationId: target, containerId: null });
    await recordMovement(ctx, {
      itemId: item.id,
      kind: "moved",
      fromLocationId: item.locationId,
      toLocationId: target,
      fromContainerId: item.containerId,
      toContainerId: null,
      bizLocationId: target,
      reason,
      data: { taskId: task.id, taskType: task.taskType },
    });
    if (item.locationId !== target) await moveContents(ctx, item.id, target, { reason, data: { taskId: task.id } });
    moved++;
  }
  return moved;
}

// ---------------------------------------------------------------- for the replenishment rules

/** The rule's open replenishment task, if any (read in the open transaction). */
export async function openTaskOfRule(ctx: TenantCtx, ruleId: string): Promise<HubTaskRow | undefined> {
  return (
    await db(ctx)
      .select()
      .from(hubTasks)
      .where(and(eq(hubTasks.replenishmentRuleId, ruleId), inArray(hubTasks.status, [...OPEN_TASK_STATES])))
      .limit(1)
  )[0];
}
