// Shipments: create, list, read, and the moves of contract §9 (dispatch, handoff,
// exception, receive, return to sender). Every command is one transaction: the
// shipment's new version and history line, and per item the kernel blocks
// (`in_transit`, source = the shipment; `packed`, source = its container), the
// item write (location on receipt or return) and its movements with their §10
// outbox events.
import { and, asc, count, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { appendEvent, historyOf, toEventDto } from "../../platform/db/history.ts";
import { FilterSet, listByUpdate, paginate, tableOrder, updatedOrder, type Page } from "../../platform/paging/paging.ts";
import type { ItemRow } from "../kernel/index.ts";
import { changeItem, loadItem } from "../kernel/index.ts";
import { clearBlock, setBlock } from "../kernel/index.ts";
import { moveContents } from "../kernel/index.ts";
import { recordMovement } from "../kernel/index.ts";
import { requireLocation } from "../locations/index.ts";
import { shipmentContainers, shipmentDiscrepancies, shipmentEvents, shipmentItems, shipments } from "./transit.tables.ts";
import { assertShipmentAction } from "./transit.states.ts";
import {
  findShipment,
  loadContainer,
  loadShipment,
  markSaved,
  packedInShipment,
  recordAggregation,
  saveContainer,
  saveShipment,
  toContainerDto,
  toContentDto,
  toDiscrepancyDto,
  toShipmentDto,
  type ContainerRow,
  type ContentRow,
  type ShipmentDto,
  type ShipmentRow,
} from "./transit.records.ts";
import { NESTED_MAX } from "./transit.schemas.ts";
import type {
  CreateShipment,
  DispatchShipment,
  HandOffShipment,
  ListShipmentContainersQuery,
  ListShipmentContentsQuery,
  ListShipmentDiscrepanciesQuery,
  ListShipmentEventsQuery,
  ListShipmentsQuery,
  ReceiveShipment,
  ReportShipmentException,
  ReturnShipmentToSender,
  ShipmentDetail,
} from "./transit.schemas.ts";

type ShipmentDetailDto = z.infer<typeof ShipmentDetail>;
type ContentDto = ReturnType<typeof toContentDto>;
type DiscrepancyDto = ReturnType<typeof toDiscrepancyDto>;
type EventDto = ReturnType<typeof toEventDto<typeof shipmentEvents.$inferSelect>>;
type ContainerSummaryDto = Omit<ReturnType<typeof toContainerDto>, "itemIds" | "childContainerIds">;

// ---------------------------------------------------------------- reads

/**
 * q on shipments: a case-insensitive prefix of the reference, the carrier or the
 * tracking reference, each a range over its expression index.
 */
function shipmentText(text: string): SQL {
  const prefix = (col: SQL) => sql`(lower(${col}) >= lower(${text}) AND lower(${col}) < lower(${text}) || char(1114111))`;
  return sql`(${prefix(sql`${shipments.reference}`)} OR ${prefix(sql`${shipments.carrier}`)} OR ${prefix(sql`${shipments.trackingReference}`)})`;
}

export async function listShipments(ctx: RequestCtx, q: ListShipmentsQuery): Promise<Page<ShipmentDto>> {
  const filters = new FilterSet().add("q", q.q, shipmentText).add("status", q.status, (v) => inArray(shipments.status, v));
  return listByUpdate(ctx, shipments, q, filters, toShipmentDto);
}

/**
 * The shipment with its container tree, contents, discrepancies and history, from one
 * snapshot. Each nested list is bounded (NESTED_MAX, exact count beside it); the
 * paged routes below hold the rest.
 */
export async function getShipment(ctx: TenantCtx, id: string): Promise<ShipmentDetailDto> {
  const ofShipment = eq(shipmentItems.shipmentId, id);
  const ofDiscrepancies = eq(shipmentDiscrepancies.shipmentId, id);
  const ofEvents = eq(shipmentEvents.shipmentId, id);
  const [rows, containers, contents, contentCount, packedCounts, discrepancies, discrepancyCount, events, eventCount] = await readSnapshot(ctx, (q) => [
    q.select().from(shipments).where(eq(shipments.id, id)),
    // Every container row: the depth-first order needs the whole tree; only its first NESTED_MAX nodes are answered.
    q.select().from(shipmentContainers).where(eq(shipmentContainers.shipmentId, id)).orderBy(asc(shipmentContainers.createdAt), asc(shipmentContainers.id)),
    q.select().from(shipmentItems).where(ofShipment).orderBy(asc(shipmentItems.packedAt), asc(shipmentItems.id)).limit(NESTED_MAX),
    q.select({ n: count() }).from(shipmentItems).where(ofShipment),
    q
      .select({ containerId: shipmentItems.containerId, n: count() })
      .from(shipmentItems)
      .where(and(ofShipment, eq(shipmentItems.state, "packed")))
      .groupBy(shipmentItems.containerId),
    q.select().from(shipmentDiscrepancies).where(ofDiscrepancies).orderBy(asc(shipmentDiscrepancies.recordedAt), asc(shipmentDiscrepancies.id)).limit(NESTED_MAX),
    q.select({ n: count() }).from(shipmentDiscrepancies).where(ofDiscrepancies),
    historyOf(q, shipmentEvents, id, { limit: NESTED_MAX }),
    q.select({ n: count() }).from(shipmentEvents).where(ofEvents),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("shipment");
  const totalContents = Number(contentCount[0]?.n ?? 0);
  const itemCounts = new Map(packedCounts.map((r) => [r.containerId, Number(r.n)]));
  return {
    ...toShipmentDto(row),
    containers: containerTree(containers, contents, itemCounts),
    containerCount: containers.length,
    containersTruncated: containers.length > NESTED_MAX,
    contents: contents.map(toContentDto),
    contentCount: totalContents,
    contentsTruncated: totalContents > contents.length,
    discrepancies: discrepancies.map(toDiscrepancyDto),
    discrepancyCount: Number(discrepancyCount[0]?.n ?? 0),
    discrepanciesTruncated: Number(discrepancyCount[0]?.n ?? 0) > discrepancies.length,
    events: events.map((e) => toEventDto(e)),
    eventCount: Number(eventCount[0]?.n ?? 0),
    eventsTruncated: Number(eventCount[0]?.n ?? 0) > events.length,
  };
}

/**
 * The first NESTED_MAX containers depth first (parents before their children),
 * siblings oldest first. A node lists the items among the answer's `contents` packed
 * directly in it and its children among the answered nodes (a prefix of the depth-first
 * order, so every answered child's parent is answered too), with exact counts.
 */
function containerTree(containers: ContainerRow[], contents: ContentRow[], itemCounts: Map<string, number>) {
  const children = new Map<string | null, ContainerRow[]>();
  for (const c of containers) children.set(c.parentContainerId, [...(children.get(c.parentContainerId) ?? []), c]);
  const order: Array<{ c: ContainerRow; depth: number }> = [];
  const visit = (parentId: string | null, depth: number) => {
    for (const c of children.get(parentId) ?? []) {
      if (order.length >= NESTED_MAX) return;
      order.push({ c, depth });
      visit(c.id, depth + 1);
    }
  };
  visit(null, 0);
  const answered = new Set(order.map((o) => o.c.id));
  const itemsIn = new Map<string, string[]>();
  for (const e of contents) if (e.state === "packed") itemsIn.set(e.containerId, [...(itemsIn.get(e.containerId) ?? []), e.itemId]);
  return order.map(({ c, depth }) => {
    const kids = children.get(c.id) ?? [];
    return {
      ...toContainerDto(
        c,
        itemsIn.get(c.id) ?? [],
        kids.filter((k) => answered.has(k.id)).map((k) => k.id),
        { itemCount: itemCounts.get(c.id) ?? 0, childContainerCount: kids.length },
      ),
      depth,
    };
  });
}

/** GET /shipments/{id}/contents: every content of the shipment, newest packed first ((packedAt, id) descending). */
export async function listShipmentContents(ctx: RequestCtx, id: string, q: ListShipmentContentsQuery): Promise<Page<ContentDto>> {
  await loadShipment(ctx, id);
  const filters = new FilterSet()
    .add("containerId", q.containerId, (v) => eq(shipmentItems.containerId, v))
    .add("state", q.state, (v) => inArray(shipmentItems.state, v));
  return paginate(
    ctx,
    {
      // The shipment is part of the route the cursor is bound to: one shipment's cursor is refused on another's.
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...tableOrder(shipmentItems, "packedAt"),
      where: filters.where(eq(shipmentItems.shipmentId, id)),
    },
    toContentDto,
  );
}

/** GET /shipments/{id}/discrepancies: every discrepancy of the shipment, newest first ((recordedAt, id) descending). */
export async function listShipmentDiscrepancies(ctx: RequestCtx, id: string, q: ListShipmentDiscrepanciesQuery): Promise<Page<DiscrepancyDto>> {
  await loadShipment(ctx, id);
  const filters = new FilterSet()
    .add("kind", q.kind, (v) => inArray(shipmentDiscrepancies.kind, v))
    .add("itemId", q.itemId, (v) => eq(shipmentDiscrepancies.itemId, v));
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...tableOrder(shipmentDiscrepancies, "recordedAt"),
      where: filters.where(eq(shipmentDiscrepancies.shipmentId, id)),
    },
    toDiscrepancyDto,
  );
}

/** GET /shipments/{id}/events: the shipment's whole history, newest first ((recordedAt, id) descending). */
export async function listShipmentEvents(ctx: RequestCtx, id: string, q: ListShipmentEventsQuery): Promise<Page<EventDto>> {
  await loadShipment(ctx, id);
  const filters = new FilterSet().add("kind", q.kind, (v) => inArray(shipmentEvents.kind, v));
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...tableOrder(shipmentEvents, "recordedAt"),
      where: filters.where(eq(shipmentEvents.shipmentId, id)),
    },
    (r) => toEventDto(r),
  );
}

/**
 * GET /shipments/{id}/containers: every container of the shipment as a list of
 * contract §7 ((updatedAt, id) descending), each with the exact counts of what is
 * directly in it (correlated counts over shipment_items_container_idx and
 * shipment_containers_parent_idx) instead of id lists.
 */
export async function listShipmentContainers(ctx: RequestCtx, id: string, q: ListShipmentContainersQuery): Promise<Page<ContainerSummaryDto>> {
  await loadShipment(ctx, id);
  const filters = new FilterSet()
    .add("parentContainerId", q.parentContainerId, (v) => eq(shipmentContainers.parentContainerId, v))
    .add("state", q.state, (v) => inArray(shipmentContainers.state, v));
  // Conditions built with eq() render table-qualified columns, so the outer row is named unambiguously.
  const counts = {
    itemCount: sql<number>`(SELECT count(*) FROM ${shipmentItems} WHERE ${and(eq(shipmentItems.containerId, shipmentContainers.id), eq(shipmentItems.state, "packed"))})`,
    childContainerCount: sql<number>`(SELECT count(*) FROM shipment_containers AS child WHERE ${eq(sql`child.parent_container_id`, shipmentContainers.id)})`,
  };
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...updatedOrder(shipmentContainers),
      where: filters.where(eq(shipmentContainers.shipmentId, id)),
      page: (qr, where, orderBy, limit) => qr.select({ c: shipmentContainers, ...counts }).from(shipmentContainers).where(where).orderBy(...orderBy).limit(limit),
      position: (r) => ({ t: r.c.updatedAt, i: r.c.id }),
    },
    (r) => {
      const { itemIds: _i, childContainerIds: _c, ...summary } = toContainerDto(r.c, [], [], { itemCount: Number(r.itemCount), childContainerCount: Number(r.childContainerCount) });
      return summary;
    },
  );
}

// ---------------------------------------------------------------- POST /shipments

export async function createShipment(ctx: RequestCtx, input: z.output<typeof CreateShipment>): Promise<ShipmentDto> {
  if (input.destinationLocationId === input.originLocationId) throw invalid("/body/destinationLocationId", "must differ from the origin");
  return withTx(ctx, async (ctx) => {
    await requireLocation(ctx, input.originLocationId, "/body/originLocationId");
    await requireLocation(ctx, input.destinationLocationId, "/body/destinationLocationId");
    const row: ShipmentRow = {
      ...newRecordMeta(ctx),
      reference: input.reference ?? null,
      originLocationId: input.originLocationId,
      destinationLocationId: input.destinationLocationId,
      carrier: input.carrier ?? null,
      trackingReference: input.trackingReference ?? null,
      expectedArrivalAt: input.expectedArrivalAt ?? null,
      note: input.note || null,
      status: "draft",
      dispatchedAt: null,
      receivedAt: null,
      returnedAt: null,
      lastReadPointId: null,
      openException: null,
    };
    await writer(ctx).insert(shipments).values(row);
    markSaved(ctx, "s", row.id);
    await appendEvent(ctx, shipmentEvents, row.id, "created", null, { originLocationId: row.originLocationId, destinationLocationId: row.destinationLocationId });
    return toShipmentDto(row);
  });
}

// ---------------------------------------------------------------- POST /shipments/{id}/dispatch

export async function dispatchShipment(ctx: RequestCtx, id: string, input: z.output<typeof DispatchShipment>): Promise<ShipmentDetailDto> {
  const note = input.note || null;
  return withTx(ctx, async (ctx) => {
    const shipment = await loadShipment(ctx, id);
    assertVersion("shipment", shipment, input.expectedVersion);
    assertShipmentAction(shipment.status, "dispatch");
    const contents = await packedInShipment(ctx, id);
    if (contents.length === 0) throw new AppError("state_conflict", "nothing is packed in the shipment; pack at least one item before dispatch");
    // A hold, maintenance or a started reservation may have come since packing.
    for (const entry of contents) {
      const item = await loadItem(ctx, entry.itemId);
      if (item.lifecycle !== "active" || item.availability !== "available") {
        const why = item.lifecycle !== "active" ? item.lifecycle : item.availability;
        throw new AppError("state_conflict", `item ${item.id} is ${why}; release it or unpack it before dispatch`, { extras: { itemId: item.id } });
      }
    }
    for (const entry of contents) {
      const item = await setBlock(ctx, entry.itemId, "in_transit", id);
      await recordMovement(ctx, {
        itemId: item.id,
        kind: "dispatched",
        bizLocationId: item.locationId,
        reason: note,
        data: {
          shipmentId: id,
          containerId: entry.containerId,
          destinationLocationId: shipment.destinationLocationId,
          carrier: shipment.carrier,
          trackingReference: shipment.trackingReference,
        },
      });
    }
    await saveShipment(ctx, id, { status: "dispatched", dispatchedAt: ctx.nowIso });
    await appendEvent(ctx, shipmentEvents, id, "dispatched", note, { itemIds: contents.map((e) => e.itemId), carrier: shipment.carrier });
    return getShipment(ctx, id);
  });
}

// ---------------------------------------------------------------- POST /shipments/{id}/handoff

/** A carrier takes custody at a read point; from `exception` this is the resume to in_transit. */
export async function handOffShipment(ctx: RequestCtx, id: string, input: z.output<typeof HandOffShipment>): Promise<ShipmentDetailDto> {
  const note = input.note || null;
  return withTx(ctx, async (ctx) => {
    await requireLocation(ctx, input.readPointId, "/body/readPointId");
    const shipment = await loadShipment(ctx, id);
    assertVersion("shipment", shipment, input.expectedVersion);
    assertShipmentAction(shipment.status, "hand_off");
    const resumed = shipment.status === "exception";
    const contents = await packedInShipment(ctx, id);
    for (const entry of contents) {
      const item = await loadItem(ctx, entry.itemId);
      await recordMovement(ctx, {
        itemId: item.id,
        kind: "handed_off",
        readPointId: input.readPointId,
        bizLocationId: item.locationId,
        reason: note,
        data: { shipmentId: id, containerId: entry.containerId, carrier: input.carrier, fromCarrier: shipment.carrier, resumed },
      });
    }
    await saveShipment(ctx, id, {
      status: "in_transit",
      carrier: input.carrier,
      trackingReference: input.trackingReference ?? shipment.trackingReference,
      lastReadPointId: input.readPointId,
      openException: null,
    });
    await appendEvent(ctx, shipmentEvents, id, resumed ? "resumed" : "handed_off", note, {
      carrier: input.carrier,
      fromCarrier: shipment.carrier,
      readPointId: input.readPointId,
      itemIds: contents.map((e) => e.itemId),
      ...(resumed ? { exception: shipment.openException } : {}),
    });
    return getShipment(ctx, id);
  });
}

// ---------------------------------------------------------------- POST /shipments/{id}/exceptions

export async function reportShipmentException(ctx: RequestCtx, id: string, input: z.output<typeof ReportShipmentException>): Promise<ShipmentDetailDto> {
  const seen = new Set<string>();
  input.itemIds?.forEach((itemId, i) => {
    if (seen.has(itemId)) throw invalid(`/body/itemIds/${i}`, "listed twice");
    seen.add(itemId);
  });
  return withTx(ctx, async (ctx) => {
    const shipment = await loadShipment(ctx, id);
    assertVersion("shipment", shipment, input.expectedVersion);
    assertShipmentAction(shipment.status, "raise_exception");
    const contents = await packedInShipment(ctx, id);
    const byItem = new Map(contents.map((e) => [e.itemId, e]));
    const affected = input.itemIds
      ? input.itemIds.map((itemId, i) => {
          const entry = byItem.get(itemId);
          if (!entry) throw invalid(`/body/itemIds/${i}`, "not an item of this shipment still in its containers");
          return entry;
        })
      : contents;
    for (const entry of affected) {
      const item = await loadItem(ctx, entry.itemId);
      await recordMovement(ctx, {
        itemId: item.id,
        kind: "transit_exception",
        bizLocationId: item.locationId,
        readPointId: shipment.lastReadPointId ?? item.locationId,
        reason: input.note,
        data: { shipmentId: id, containerId: entry.containerId, exceptionKind: input.kind },
      });
    }
    const itemIds = affected.map((e) => e.itemId);
    await saveShipment(ctx, id, {
      status: "exception",
      openException: { kind: input.kind, note: input.note, itemIds, raisedAt: ctx.nowIso, raisedBy: ctx.actorId },
    });
    await appendEvent(ctx, shipmentEvents, id, "exception", input.note, { kind: input.kind, itemIds, fromStatus: shipment.status });
    return getShipment(ctx, id);
  });
}

// ---------------------------------------------------------------- receipt and return: shared steps

/** Takes a travelling item out of the shipment: its blocks go, it is put at `toLocationId` (its contents follow). */
async function release(ctx: TenantCtx, shipment: ShipmentRow, entry: ContentRow, toLocationId: string, patch: { condition?: ItemRow["condition"] } = {}) {
  const before = await loadItem(ctx, entry.itemId);
  await clearBlock(ctx, entry.itemId, "in_transit", shipment.id);
  await clearBlock(ctx, entry.itemId, "packed", entry.containerId);
  const after = await changeItem(ctx, entry.itemId, { locationId: toLocationId, ...patch });
  if (toLocationId !== before.locationId) {
    await moveContents(ctx, entry.itemId, toLocationId, { reason: "its container arrived", data: { shipmentId: shipment.id } });
  }
  return { before, after };
}

/**
 * Containers emptied of travelling items (at any depth) become `unpacked`; open
 * ones (never packed) stay open.
 */
async function settleContainers(ctx: TenantCtx, shipmentId: string): Promise<void> {
  const q = db(ctx);
  const containers = await q.select().from(shipmentContainers).where(eq(shipmentContainers.shipmentId, shipmentId));
  const parentOf = new Map(containers.map((c) => [c.id, c.parentContainerId]));
  const holding = new Set<string>();
  for (const entry of await packedInShipment(ctx, shipmentId)) {
    for (let c: string | null = entry.containerId; c !== null && !holding.has(c); c = parentOf.get(c) ?? null) holding.add(c);
  }
  for (const c of containers) if (c.state === "packed" && !holding.has(c.id)) await saveContainer(ctx, c.id, { state: "unpacked" });
}

async function addDiscrepancy(ctx: TenantCtx, shipmentId: string, itemId: string, kind: "missing" | "damaged" | "unexpected", note: string | null) {
  await writer(ctx)
    .insert(shipmentDiscrepancies)
    .values({ id: ctx.deps.newId(), shipmentId, itemId, kind, note, recordedAt: ctx.nowIso, recordedBy: ctx.actorId, resolvedAt: null, resolvedBy: null });
}

// ---------------------------------------------------------------- POST /shipments/{id}/receive

/**
 * Receives what arrived. Listed items of the shipment still travelling are put at
 * the receiving location, lose their in_transit and packed blocks, and get a
 * `received` movement (then `unpacked`, the aggregation ending). A listed id the
 * shipment does not carry is an `unexpected` discrepancy and changes nothing;
 * `damaged` entries are received with a `damaged` discrepancy. The receipt is
 * full when no item of the shipment is left travelling: the shipment is
 * `received`. Otherwise it is partial: the shipment is (or resumes) `in_transit`,
 * each item still travelling gets one open `missing` discrepancy, resolved when a
 * later receipt brings it.
 */
export async function receiveShipment(ctx: RequestCtx, id: string, input: z.output<typeof ReceiveShipment>): Promise<ShipmentDetailDto> {
  const seen = new Set<string>();
  input.items.forEach((e, i) => {
    if (seen.has(e.itemId)) throw invalid(`/body/items/${i}/itemId`, "listed twice");
    seen.add(e.itemId);
  });
  const note = input.note || null;
  return withTx(ctx, async (ctx) => {
    if (input.locationId !== undefined) await requireLocation(ctx, input.locationId, "/body/locationId");
    const shipment = await loadShipment(ctx, id);
    assertVersion("shipment", shipment, input.expectedVersion);
    assertShipmentAction(shipment.status, "receive");
    const toLocationId = input.locationId ?? shipment.destinationLocationId;
    const manifest = await manifestOf(ctx, id, input.items);

    const received: string[] = [];
    const unexpected: string[] = [];
    const damaged: string[] = [];
    for (const e of input.items) {
      const entry = manifest.get(e.itemId);
      const why = e.note || note;
      if (!entry) {
        unexpected.push(e.itemId);
        await addDiscrepancy(ctx, id, e.itemId, "unexpected", why);
        continue;
      }
      await receiveItem(ctx, shipment, entry, e, toLocationId, why);
      if (e.damaged) {
        damaged.push(e.itemId);
        await addDiscrepancy(ctx, id, e.itemId, "damaged", why);
      }
      received.push(e.itemId);
    }

    const travelling = await packedInShipment(ctx, id);
    await reportMissing(ctx, id, travelling, note);
    const complete = travelling.length === 0;
    await settleContainers(ctx, id);
    await saveShipment(ctx, id, { status: complete ? "received" : "in_transit", receivedAt: complete ? ctx.nowIso : null, openException: null });
    await appendEvent(ctx, shipmentEvents, id, "received", note, {
      locationId: toLocationId,
      complete,
      itemIds: received,
      missing: travelling.map((e) => e.itemId),
      damaged,
      unexpected,
      ...(shipment.status === "exception" ? { resumedFrom: shipment.openException } : {}),
    });
    return getShipment(ctx, id);
  });
}

type ReceivedEntry = z.output<typeof ReceiveShipment>["items"][number];

/** The shipment's items by id; a listed item already received or returned is a conflict. */
async function manifestOf(ctx: TenantCtx, shipmentId: string, listed: ReceivedEntry[]): Promise<Map<string, ContentRow>> {
  const manifest = new Map((await db(ctx).select().from(shipmentItems).where(eq(shipmentItems.shipmentId, shipmentId))).map((e) => [e.itemId, e]));
  for (const e of listed) {
    const entry = manifest.get(e.itemId);
    if (entry && entry.state !== "packed") {
      throw new AppError("state_conflict", `item ${e.itemId} was already ${entry.state} at ${entry.receivedAt ?? entry.returnedAt}`, { extras: { itemId: e.itemId } });
    }
  }
  return manifest;
}

/** One travelling item arrives: at the location, out of its container, its open `missing` discrepancy resolved. */
async function receiveItem(ctx: TenantCtx, shipment: ShipmentRow, entry: ContentRow, e: ReceivedEntry, toLocationId: string, why: string | null): Promise<void> {
  const container = await loadContainer(ctx, entry.containerId);
  const { before, after } = await release(ctx, shipment, entry, toLocationId, { condition: e.condition });
  await recordMovement(ctx, {
    itemId: e.itemId,
    kind: "received",
    fromLocationId: before.locationId,
    toLocationId,
    bizLocationId: toLocationId,
    reason: why,
    data: { shipmentId: shipment.id, containerId: entry.containerId, condition: e.condition ?? null, fromCondition: before.condition, damaged: e.damaged ?? false },
  });
  await recordAggregation(ctx, "unpacked", after, container, { reason: why, data: { received: true } });
  await writer(ctx)
    .update(shipmentItems)
    .set({ state: "received", receivedAt: ctx.nowIso, receivedBy: ctx.actorId, receivedLocationId: toLocationId, receivedCondition: e.condition ?? null })
    .where(eq(shipmentItems.id, entry.id));
  await writer(ctx)
    .update(shipmentDiscrepancies)
    .set({ resolvedAt: ctx.nowIso, resolvedBy: ctx.actorId })
    .where(
      and(
        eq(shipmentDiscrepancies.shipmentId, shipment.id),
        eq(shipmentDiscrepancies.itemId, e.itemId),
        eq(shipmentDiscrepancies.kind, "missing"),
        isNull(shipmentDiscrepancies.resolvedAt),
      ),
    );
}

/** Each item still travelling after a receipt has one open `missing` discrepancy. */
async function reportMissing(ctx: TenantCtx, shipmentId: string, travelling: ContentRow[], note: string | null): Promise<void> {
  const openMissing = new Set(
    (
      await db(ctx)
        .select({ itemId: shipmentDiscrepancies.itemId })
        .from(shipmentDiscrepancies)
        .where(and(eq(shipmentDiscrepancies.shipmentId, shipmentId), eq(shipmentDiscrepancies.kind, "missing"), isNull(shipmentDiscrepancies.resolvedAt)))
    ).map((r) => r.itemId),
  );
  for (const entry of travelling) if (!openMissing.has(entry.itemId)) await addDiscrepancy(ctx, shipmentId, entry.itemId, "missing", note);
}

// ---------------------------------------------------------------- POST /shipments/{id}/return-to-sender

/** Every item still travelling comes back to the origin location, out of its container and free of transit blocks. */
export async function returnShipmentToSender(ctx: RequestCtx, id: string, input: z.output<typeof ReturnShipmentToSender>): Promise<ShipmentDetailDto> {
  const reason = input.reason || null;
  return withTx(ctx, async (ctx) => {
    const shipment = await loadShipment(ctx, id);
    assertVersion("shipment", shipment, input.expectedVersion);
    assertShipmentAction(shipment.status, "return_to_sender");
    const travelling = await packedInShipment(ctx, id);
    const origin = shipment.originLocationId;
    for (const entry of travelling) {
      const container = await loadContainer(ctx, entry.containerId);
      const { before, after } = await release(ctx, shipment, entry, origin);
      await recordMovement(ctx, {
        itemId: entry.itemId,
        kind: "returned_to_sender",
        fromLocationId: before.locationId,
        toLocationId: origin,
        bizLocationId: origin,
        reason,
        data: { shipmentId: id, containerId: entry.containerId, exception: shipment.openException?.kind ?? null },
      });
      await recordAggregation(ctx, "unpacked", after, container, { reason, data: { returnedToSender: true } });
      await writer(ctx).update(shipmentItems).set({ state: "returned", returnedAt: ctx.nowIso }).where(eq(shipmentItems.id, entry.id));
    }
    await settleContainers(ctx, id);
    await saveShipment(ctx, id, { status: "returned_to_sender", returnedAt: ctx.nowIso, openException: null });
    await appendEvent(ctx, shipmentEvents, id, "returned_to_sender", reason, { itemIds: travelling.map((e) => e.itemId), exception: shipment.openException });
    return getShipment(ctx, id);
  });
}

// ---------------------------------------------------------------- exception resolution (workflow cases)

/** The shipment an exception resolution names: 400 at `path` when unknown, 409 unless it is in `exception`. */
export async function requireShipmentInException(ctx: TenantCtx, id: string, path: string): Promise<ShipmentRow> {
  const shipment = await findShipment(ctx, id);
  if (!shipment) throw invalid(path, "unknown shipment");
  if (shipment.status !== "exception") {
    throw new AppError("state_conflict", `the shipment is ${shipment.status}, not in exception`, { extras: { state: shipment.status } });
  }
  return shipment;
}

/** 400 at `path` unless the location exists and is active; 409 when it is already the destination or is the origin. */
export async function assertNewDestination(ctx: TenantCtx, shipment: ShipmentRow, destinationLocationId: string, path: string): Promise<void> {
  await requireLocation(ctx, destinationLocationId, path);
  if (destinationLocationId === shipment.destinationLocationId) throw new AppError("state_conflict", "the shipment is already bound there");
  if (destinationLocationId === shipment.originLocationId) throw new AppError("state_conflict", "that is the shipment's origin; return it to sender instead");
}

/**
 * Sends a shipment in exception to another destination (a workflow case applies it
 * and then resumes the shipment with a handoff): a `rerouted` event.
 */
export async function rerouteShipment(ctx: RequestCtx, id: string, input: { destinationLocationId: string; reason: string; workflowCaseId: string }): Promise<void> {
  return withTx(ctx, async (ctx) => {
    const shipment = await requireShipmentInException(ctx, id, "/body/shipmentId");
    await assertNewDestination(ctx, shipment, input.destinationLocationId, "/body/destinationLocationId");
    await saveShipment(ctx, id, { destinationLocationId: input.destinationLocationId });
    await appendEvent(ctx, shipmentEvents, id, "rerouted", input.reason, {
      fromDestinationLocationId: shipment.destinationLocationId,
      toDestinationLocationId: input.destinationLocationId,
      workflowCaseId: input.workflowCaseId,
    });
  });
}

/**
 * The items an open exception names that still travel (all travelling items when it
 * names none): the ones a loss would be accepted for.
 */
export async function lostInException(ctx: TenantCtx, shipment: ShipmentRow): Promise<string[]> {
  const travelling = (await packedInShipment(ctx, shipment.id)).map((e) => e.itemId);
  const named = shipment.openException?.itemIds;
  return named && named.length > 0 ? travelling.filter((id) => named.includes(id)) : travelling;
}

/**
 * Accepts the loss an open exception reports (a workflow case applies it and disposes
 * of the items): each lost item leaves the shipment (`lost`, its in_transit and packed
 * blocks released, an open `missing` discrepancy), and the shipment gets a
 * `loss_accepted` event. It resumes `in_transit` when other items still travel;
 * when none do, nothing more will arrive and it ends `received`, as a receipt that
 * leaves nothing travelling does. Returns the lost item ids.
 */
export async function acceptShipmentLoss(ctx: RequestCtx, id: string, input: { reason: string; workflowCaseId: string }): Promise<string[]> {
  return withTx(ctx, async (ctx) => {
    const shipment = await requireShipmentInException(ctx, id, "/body/shipmentId");
    const lostIds = await lostInException(ctx, shipment);
    if (lostIds.length === 0) throw new AppError("state_conflict", "no item the exception names is still travelling");
    const contents = await packedInShipment(ctx, id);
    for (const entry of contents.filter((e) => lostIds.includes(e.itemId))) {
      await clearBlock(ctx, entry.itemId, "in_transit", id);
      await clearBlock(ctx, entry.itemId, "packed", entry.containerId);
      await writer(ctx).update(shipmentItems).set({ state: "lost" }).where(eq(shipmentItems.id, entry.id));
      await addDiscrepancy(ctx, id, entry.itemId, "missing", input.reason);
    }
    await settleContainers(ctx, id);
    const stillTravelling = (await packedInShipment(ctx, id)).length > 0;
    await saveShipment(ctx, id, { status: stillTravelling ? "in_transit" : "received", openException: null, ...(stillTravelling ? {} : { receivedAt: ctx.nowIso }) });
    await appendEvent(ctx, shipmentEvents, id, "loss_accepted", input.reason, { itemIds: lostIds, exception: shipment.openException, workflowCaseId: input.workflowCaseId });
    return lostIds;
  });
}
