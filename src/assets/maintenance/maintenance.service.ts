// Work orders: maintenance of one item. An order holds its item in maintenance
// through the kernel's `maintenance` block (availability in_maintenance) from
// creation until completion or cancellation, with a maintenance_started and a
// maintenance_completed movement. Starting an order moves an active item's lifecycle
// to in_maintenance; letting go of the last order that holds it moves it back to
// active (contract §9). Completion consumes the parts used, records labour and cost,
// and for a recurring order opens the next one. Every command is one write
// transaction with its history row.
import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { loadOr404, saveVersion } from "../../platform/db/records.ts";
import { appendEvent, historyOf, toEventDto } from "../../platform/db/history.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate, type Page } from "../../platform/paging/paging.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { loadCapabilityConfig } from "../../platform/auth/membership.ts";
import { effectiveCapabilities } from "../../platform/auth/capabilities.ts";
import type { ItemRow } from "../kernel/index.ts";
import { changeItem, findItem, loadItem, moveLifecycle, requireItem } from "../kernel/index.ts";
import { clearBlock, hasBlock, setBlock } from "../kernel/index.ts";
import { assertLifecycleMove } from "../kernel/index.ts";
import { recordMovement } from "../kernel/index.ts";
import { workOrderEvents, workOrders, workOrderWords, type LabourEntry, type PartUsed } from "./maintenance.tables.ts";
import { assertWorkOrderMove, isOverdue, UNFINISHED } from "./maintenance.states.ts";
import { wordsMatch, wordsOf } from "../../platform/search/search-words.ts";
import type {
  CancelWorkOrder,
  CompleteWorkOrder,
  CreateWorkOrder,
  ListWorkOrdersQuery,
  PauseWorkOrder,
  ReassignWorkOrder,
  StartWorkOrder,
} from "./maintenance.schemas.ts";

export type WorkOrderRow = typeof workOrders.$inferSelect;
type Outcome = z.output<typeof CompleteWorkOrder>["outcome"];

const DAY_MS = 86_400_000;
/** Lifecycles whose items no longer exist to be maintained. */
const GONE = new Set(["disposed", "consumed"]);

export function toWorkOrderDto(r: WorkOrderRow, nowIso: string) {
  const labour = r.labour ?? [];
  return {
    id: r.id,
    itemId: r.itemId,
    kind: r.kind,
    title: r.title,
    description: r.description,
    status: r.status,
    assigneeUserId: r.assigneeUserId,
    dueAt: r.dueAt,
    overdue: isOverdue(r, nowIso),
    recurrence: r.recurrenceEveryDays !== null ? { everyDays: r.recurrenceEveryDays } : null,
    holdsItem: r.holdsItem,
    previousWorkOrderId: r.previousWorkOrderId,
    nextWorkOrderId: r.nextWorkOrderId,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    cancelledAt: r.cancelledAt,
    completion:
      r.status === "completed" && r.outcome !== null
        ? {
            outcome: r.outcome as Outcome,
            labour,
            labourMinutes: labour.reduce((sum, l) => sum + l.minutes, 0),
            parts: r.parts ?? [],
            cost: r.costAmount !== null && r.costCurrency !== null ? { amount: r.costAmount, currency: r.costCurrency } : null,
            nextDueOn: r.nextDueOn,
            note: r.completionNote,
          }
        : null,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
export type WorkOrderDto = ReturnType<typeof toWorkOrderDto>;

const loadWorkOrder = (ctx: TenantCtx, id: string): Promise<WorkOrderRow> => loadOr404(db(ctx), workOrders, id, "work order");
const saveWorkOrder = (ctx: TenantCtx, row: WorkOrderRow, change: Partial<WorkOrderRow>) => saveVersion(writer(ctx), workOrders, row, change, ctx.nowIso);

// ---------------------------------------------------------------- reads

export async function listWorkOrders(ctx: RequestCtx, q: z.output<typeof ListWorkOrdersQuery>): Promise<Page<WorkOrderDto>> {
  return listByUpdate(ctx, workOrders, q, workOrderFilters(q), (r) => toWorkOrderDto(r, ctx.nowIso));
}

/** The filters of GET /work-orders (exported for the query-plan test). */
export function workOrderFilters(q: Omit<z.output<typeof ListWorkOrdersQuery>, "limit">): FilterSet {
  return new FilterSet()
    .add("q", q.q ? wordsMatch(q.q, workOrders.id, workOrderWords.word, workOrderWords.workOrderId, sql`${workOrderWords}`) : null, (m) => m, q.q)
    .add("status", q.status, (v) => inArray(workOrders.status, v))
    .add("itemId", q.itemId, (v) => eq(workOrders.itemId, v));
}

/**
 * One keyset page (by id) of the costs stated at completion of work orders completed
 * by `asOf`: what the canonical snapshot exports as economic entries.
 */
export async function completedWorkOrderCosts(ctx: TenantCtx, opts: { asOf: string; afterId: string | null; limit: number }) {
  const rows = await db(ctx)
    .select({
      id: workOrders.id,
      itemId: workOrders.itemId,
      kind: workOrders.kind,
      title: workOrders.title,
      completedAt: workOrders.completedAt,
      amount: workOrders.costAmount,
      currency: workOrders.costCurrency,
    })
    .from(workOrders)
    .where(
      and(
        eq(workOrders.status, "completed"),
        isNotNull(workOrders.costAmount),
        isNotNull(workOrders.costCurrency),
        lte(workOrders.completedAt, opts.asOf),
        opts.afterId === null ? undefined : gt(workOrders.id, opts.afterId),
      ),
    )
    .orderBy(asc(workOrders.id))
    .limit(opts.limit);
  // The where clause guarantees the completion time and both cost columns.
  return rows.map(({ amount, currency, completedAt, ...r }) => ({ ...r, completedAt: completedAt!, cost: { amount: amount!, currency: currency! } }));
}

export async function getWorkOrder(ctx: RequestCtx, id: string) {
  // One snapshot: the order and its history agree.
  const [rows, events] = await readSnapshot(ctx, (q) => [
    q.select().from(workOrders).where(eq(workOrders.id, id)),
    historyOf(q, workOrderEvents, id),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("work order");
  return { ...toWorkOrderDto(row, ctx.nowIso), history: events.map((e) => toEventDto(e)) };
}

// ---------------------------------------------------------------- shared checks

/** An assignee must be an active member holding ams_operate (by role default or a live grant); else 400 at `path`. */
async function assertAssignable(ctx: TenantCtx, userId: string, path: string): Promise<void> {
  const q = db(ctx);
  const member = (await q.select({ role: memberships.role, status: memberships.status }).from(memberships).where(eq(memberships.userId, userId)))[0];
  if (!member || member.status !== "active") throw invalid(path, "not an active member of this partner");
  const capabilities = effectiveCapabilities(await loadCapabilityConfig(q), userId, member.role, ctx.nowIso);
  if (!capabilities.has("ams_operate")) throw invalid(path, "does not hold ams_operate, so cannot be assigned work orders");
}

async function isActiveMember(ctx: TenantCtx, userId: string): Promise<boolean> {
  const rows = await db(ctx).select({ status: memberships.status }).from(memberships).where(eq(memberships.userId, userId));
  return rows[0]?.status === "active";
}

/** From now on the order keeps its item in maintenance (block + maintenance_started movement). */
async function holdItem(ctx: TenantCtx, order: WorkOrderRow): Promise<void> {
  const item = await setBlock(ctx, order.itemId, "maintenance", order.id);
  await recordMovement(ctx, {
    itemId: order.itemId,
    kind: "maintenance_started",
    bizLocationId: item.locationId,
    data: { workOrderId: order.id, workOrderKind: order.kind },
  });
}

/**
 * The order lets its item go (block cleared + maintenance_completed movement);
 * availability is re-derived. When no other order holds the item any more, an item
 * in lifecycle in_maintenance is back in service (active).
 */
async function releaseItem(ctx: TenantCtx, order: WorkOrderRow, data: Record<string, unknown>, reason: string | null): Promise<void> {
  const item = await clearBlock(ctx, order.itemId, "maintenance", order.id);
  if (item.lifecycle === "in_maintenance" && !(await hasBlock(ctx, order.itemId, "maintenance"))) {
    await moveLifecycle(ctx, order.itemId, "active", "left_maintenance", { workOrderId: order.id, ...data }, reason);
  }
  await recordMovement(ctx, {
    itemId: order.itemId,
    kind: "maintenance_completed",
    bizLocationId: item.locationId,
    reason,
    data: { workOrderId: order.id, workOrderKind: order.kind, ...data },
  });
}

function newOrderRow(
  ctx: TenantCtx,
  f: Pick<WorkOrderRow, "itemId" | "kind" | "title" | "description" | "assigneeUserId" | "dueAt" | "recurrenceEveryDays" | "holdsItem" | "previousWorkOrderId">,
): WorkOrderRow {
  return {
    ...newRecordMeta(ctx),
    ...f,
    status: "open",
    nextWorkOrderId: null,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
    outcome: null,
    labour: null,
    parts: null,
    costAmount: null,
    costCurrency: null,
    nextDueOn: null,
    completionNote: null,
  };
}

async function insertOrder(ctx: TenantCtx, row: WorkOrderRow): Promise<void> {
  await writer(ctx).insert(workOrders).values(row);
  const words = wordsOf(row.title);
  if (words.length > 0) await writer(ctx).insert(workOrderWords).values(words.map((word) => ({ word, workOrderId: row.id })));
}

// ---------------------------------------------------------------- commands

/** POST /work-orders: an open order that holds its item in maintenance from now on. */
export async function createWorkOrder(ctx: RequestCtx, input: z.output<typeof CreateWorkOrder>): Promise<WorkOrderDto> {
  if (input.dueAt !== undefined && input.dueAt <= ctx.nowIso) throw invalid("/body/dueAt", "must be in the future");
  return withTx(ctx, async (ctx) => {
    const item = await requireItem(ctx, input.itemId, "/body/itemId");
    if (input.assigneeUserId !== undefined) await assertAssignable(ctx, input.assigneeUserId, "/body/assigneeUserId");
    if (GONE.has(item.lifecycle)) throw new AppError("state_conflict", `a ${item.lifecycle} item cannot be maintained`);
    const row = newOrderRow(ctx, {
      itemId: item.id,
      kind: input.kind,
      title: input.title,
      description: input.description ?? null,
      assigneeUserId: input.assigneeUserId ?? null,
      dueAt: input.dueAt ?? null,
      recurrenceEveryDays: input.recurrence?.everyDays ?? null,
      holdsItem: true,
      previousWorkOrderId: null,
    });
    await insertOrder(ctx, row);
    await appendEvent(ctx, workOrderEvents, row.id, "created", null, { assigneeUserId: row.assigneeUserId, dueAt: row.dueAt, recurrence: input.recurrence ?? null });
    await holdItem(ctx, row);
    return toWorkOrderDto(row, ctx.nowIso);
  });
}

/**
 * POST /work-orders/{id}/start: open → in_progress, or paused → in_progress
 * (resumed). An order opened by a recurrence takes hold of its item here. An active
 * item goes to lifecycle in_maintenance (contract §9); an item in another lifecycle
 * keeps it (a planned item may be inspected before it is put into service).
 */
export async function startWorkOrder(ctx: RequestCtx, id: string, input: z.output<typeof StartWorkOrder>): Promise<WorkOrderDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadWorkOrder(ctx, id);
    assertVersion("work order", row, input.expectedVersion);
    assertWorkOrderMove(row.status, "in_progress", "start");
    const resuming = row.status === "paused";
    const next = await saveWorkOrder(ctx, row, { status: "in_progress", startedAt: row.startedAt ?? ctx.nowIso, holdsItem: true });
    await appendEvent(ctx, workOrderEvents, id, resuming ? "resumed" : "started", null, {});
    if (!row.holdsItem) await holdItem(ctx, next);
    if ((await loadItem(ctx, row.itemId)).lifecycle === "active") {
      await moveLifecycle(ctx, row.itemId, "in_maintenance", "entered_maintenance", { workOrderId: id });
    }
    return toWorkOrderDto(next, ctx.nowIso);
  });
}

/** POST /work-orders/{id}/pause: in_progress → paused; the item stays in maintenance. */
export async function pauseWorkOrder(ctx: RequestCtx, id: string, input: z.output<typeof PauseWorkOrder>): Promise<WorkOrderDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadWorkOrder(ctx, id);
    assertVersion("work order", row, input.expectedVersion);
    assertWorkOrderMove(row.status, "paused", "pause");
    const next = await saveWorkOrder(ctx, row, { status: "paused" });
    await appendEvent(ctx, workOrderEvents, id, "paused", input.reason, {});
    return toWorkOrderDto(next, ctx.nowIso);
  });
}

/** POST /work-orders/{id}/reassign: another eligible assignee for an unfinished order; who and why are recorded. */
export async function reassignWorkOrder(ctx: RequestCtx, id: string, input: z.output<typeof ReassignWorkOrder>): Promise<WorkOrderDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadWorkOrder(ctx, id);
    await assertAssignable(ctx, input.assigneeUserId, "/body/assigneeUserId");
    assertVersion("work order", row, input.expectedVersion);
    if (!UNFINISHED.includes(row.status)) {
      throw new AppError("state_conflict", `cannot reassign a work order that is ${row.status}`, { extras: { workOrderStatus: row.status } });
    }
    if (row.assigneeUserId === input.assigneeUserId) throw new AppError("state_conflict", `the work order is already assigned to ${input.assigneeUserId}`);
    const next = await saveWorkOrder(ctx, row, { assigneeUserId: input.assigneeUserId });
    await appendEvent(ctx, workOrderEvents, id, "reassigned", input.reason, { from: row.assigneeUserId, to: input.assigneeUserId });
    return toWorkOrderDto(next, ctx.nowIso);
  });
}

/** POST /work-orders/{id}/cancel: open/paused → cancelled; the item is let go. */
export async function cancelWorkOrder(ctx: RequestCtx, id: string, input: z.output<typeof CancelWorkOrder>): Promise<WorkOrderDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadWorkOrder(ctx, id);
    assertVersion("work order", row, input.expectedVersion);
    assertWorkOrderMove(row.status, "cancelled", "cancel");
    const reason = input.reason ?? null;
    const next = await saveWorkOrder(ctx, row, { status: "cancelled", cancelledAt: ctx.nowIso, holdsItem: false });
    await appendEvent(ctx, workOrderEvents, id, "cancelled", reason, {});
    if (row.holdsItem) await releaseItem(ctx, row, { cancelled: true }, reason);
    return toWorkOrderDto(next, ctx.nowIso);
  });
}

interface CheckedPart {
  part: ItemRow;
  quantity: number;
}

/**
 * POST /work-orders/{id}/complete: in_progress or paused → completed. Parts are
 * consumed through the kernel (quantity down, `consumed` movement, lifecycle
 * consumed at 0); not enough on hand is 409 and nothing is consumed. The item is
 * let go. A recurring order opens the next one, due at the end of nextDueOn (UTC)
 * or everyDays after now; it takes hold of the item only when started.
 */
export async function completeWorkOrder(ctx: RequestCtx, id: string, input: z.output<typeof CompleteWorkOrder>): Promise<WorkOrderDto> {
  const today = ctx.nowIso.slice(0, 10);
  if (input.nextDueOn !== undefined && input.nextDueOn <= today) throw invalid("/body/nextDueOn", "must be after today (UTC)");
  return withTx(ctx, async (ctx) => {
    const row = await loadWorkOrder(ctx, id);
    const labour: LabourEntry[] = [];
    for (const [i, l] of (input.labour ?? []).entries()) {
      const userId = l.userId ?? ctx.actorId;
      if (!(await isActiveMember(ctx, userId))) throw invalid(`/body/labour/${i}/userId`, "not an active member of this partner");
      labour.push({ userId, minutes: l.minutes });
    }
    const parts = await checkParts(ctx, row, input.parts ?? []);
    assertVersion("work order", row, input.expectedVersion);
    assertWorkOrderMove(row.status, "completed", "complete");
    for (const p of parts) await consumePart(ctx, row, p);

    let nextOrder: WorkOrderRow | null = null;
    const item = await loadItem(ctx, row.itemId);
    if (row.recurrenceEveryDays !== null && !GONE.has(item.lifecycle)) {
      const dueAt = input.nextDueOn !== undefined ? `${input.nextDueOn}T23:59:59.999Z` : new Date(ctx.now.getTime() + row.recurrenceEveryDays * DAY_MS).toISOString();
      // The assignee carries over while still eligible.
      const assignee = row.assigneeUserId !== null && (await assignable(ctx, row.assigneeUserId)) ? row.assigneeUserId : null;
      nextOrder = newOrderRow(ctx, {
        itemId: row.itemId,
        kind: row.kind,
        title: row.title,
        description: row.description,
        assigneeUserId: assignee,
        dueAt,
        recurrenceEveryDays: row.recurrenceEveryDays,
        holdsItem: false,
        previousWorkOrderId: row.id,
      });
      await insertOrder(ctx, nextOrder);
      await appendEvent(ctx, workOrderEvents, nextOrder.id, "created", null, { assigneeUserId: assignee, dueAt, recurrence: { everyDays: row.recurrenceEveryDays }, previousWorkOrderId: row.id });
    }
    const next = await saveWorkOrder(ctx, row, {
      status: "completed",
      completedAt: ctx.nowIso,
      holdsItem: false,
      outcome: input.outcome,
      labour,
      parts: parts.map((p) => ({ itemId: p.part.id, quantity: p.quantity })),
      costAmount: input.cost?.amount ?? null,
      costCurrency: input.cost?.currency ?? null,
      nextDueOn: input.nextDueOn ?? null,
      completionNote: input.note ?? null,
      nextWorkOrderId: nextOrder?.id ?? null,
    });
    await appendEvent(ctx, workOrderEvents, id, "completed", input.note ?? null, {
      outcome: input.outcome,
      labourMinutes: labour.reduce((s, l) => s + l.minutes, 0),
      parts: next.parts,
      cost: input.cost ?? null,
      nextWorkOrderId: next.nextWorkOrderId,
    });
    if (row.holdsItem) await releaseItem(ctx, row, { outcome: input.outcome }, input.note ?? null);
    return toWorkOrderDto(next, ctx.nowIso);
  });
}

async function assignable(ctx: TenantCtx, userId: string): Promise<boolean> {
  try {
    await assertAssignable(ctx, userId, "");
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === "validation_failed") return false;
    throw err;
  }
}

/** 400s of the parts list: unknown items, serialised items, the maintained item itself, one item twice. */
async function checkParts(ctx: TenantCtx, order: WorkOrderRow, parts: PartUsed[]): Promise<CheckedPart[]> {
  const seen = new Set<string>();
  const out: CheckedPart[] = [];
  for (const [i, p] of parts.entries()) {
    const path = `/body/parts/${i}/itemId`;
    const part = await findItem(ctx, p.itemId);
    if (!part) throw invalid(path, "unknown item");
    if (part.tracking !== "quantity") throw invalid(path, "not a quantity-tracked consumable");
    if (part.id === order.itemId) throw invalid(path, "the maintained item cannot be a part of its own work order");
    if (seen.has(part.id)) throw invalid(path, "the same part is listed twice; give its total quantity once");
    seen.add(part.id);
    out.push({ part, quantity: p.quantity });
  }
  return out;
}

/**
 * Consumes a part by the rules of POST /items/{id}/consume (the kernel has no
 * consume step of its own): 409 when it is not active, is out on a checkout, is
 * packed for or in transit, or too few are on hand.
 */
async function consumePart(ctx: TenantCtx, order: WorkOrderRow, { part, quantity }: CheckedPart): Promise<void> {
  if (part.lifecycle !== "active") throw new AppError("state_conflict", `part ${part.id} is ${part.lifecycle}; only an active item can be consumed`);
  if (await hasBlock(ctx, part.id, "checked_out")) throw new AppError("state_conflict", `part ${part.id} is checked out; return it before using it`);
  if (await hasBlock(ctx, part.id, "packed")) throw new AppError("state_conflict", `part ${part.id} is packed in a shipment container; unpack it before using it`);
  if (await hasBlock(ctx, part.id, "in_transit")) throw new AppError("state_conflict", `part ${part.id} is in transit; receive it before using it`);
  if (quantity > part.quantity) {
    throw new AppError("state_conflict", `only ${part.quantity} of part ${part.id} on hand; cannot use ${quantity}`, {
      extras: { itemId: part.id, onHand: part.quantity, requested: quantity },
    });
  }
  const remaining = part.quantity - quantity;
  const lifecycle = remaining === 0 ? "consumed" : part.lifecycle;
  if (lifecycle !== part.lifecycle) assertLifecycleMove(part.lifecycle, lifecycle);
  await changeItem(ctx, part.id, { quantity: remaining, lifecycle });
  await recordMovement(ctx, {
    itemId: part.id,
    kind: "consumed",
    fromLocationId: part.locationId,
    bizLocationId: part.locationId,
    quantity,
    reason: `used in work order ${order.id}`,
    data: { remaining, workOrderId: order.id, maintainedItemId: order.itemId },
  });
}

