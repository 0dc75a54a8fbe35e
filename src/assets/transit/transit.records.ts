// What the shipment and container services share: loading, saving each record at
// most one new version per transaction (a command touching a container three
// times still makes one version), the aggregation movements, and the row → DTO
// mappings. The shipment's history is a platform event log (shipment_events).
import { and, asc, count, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { db, readSnapshot, txScoped, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { recordMovement } from "../kernel/index.ts";
import { shipmentContainers, shipmentDiscrepancies, shipmentItems, shipments } from "./transit.tables.ts";
import { NESTED_MAX, type ShipmentContainer } from "./transit.schemas.ts";

export type ShipmentRow = typeof shipments.$inferSelect;
export type ContainerRow = typeof shipmentContainers.$inferSelect;
export type ContentRow = typeof shipmentItems.$inferSelect;
export type DiscrepancyRow = typeof shipmentDiscrepancies.$inferSelect;

// ---------------------------------------------------------------- DTOs

export function toShipmentDto(r: ShipmentRow) {
  return {
    id: r.id,
    reference: r.reference,
    originLocationId: r.originLocationId,
    destinationLocationId: r.destinationLocationId,
    carrier: r.carrier,
    trackingReference: r.trackingReference,
    expectedArrivalAt: r.expectedArrivalAt,
    note: r.note,
    status: r.status,
    dispatchedAt: r.dispatchedAt,
    receivedAt: r.receivedAt,
    returnedAt: r.returnedAt,
    lastReadPointId: r.lastReadPointId,
    openException: r.openException ?? null,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
export type ShipmentDto = ReturnType<typeof toShipmentDto>;

/** The container with the ids an answer embeds and the exact counts of what is directly in it. */
export function toContainerDto(
  r: ContainerRow,
  itemIds: string[],
  childContainerIds: string[],
  counts: { itemCount: number; childContainerCount: number },
): z.infer<typeof ShipmentContainer> {
  return {
    id: r.id,
    shipmentId: r.shipmentId,
    parentContainerId: r.parentContainerId,
    kind: r.kind,
    label: r.label,
    code: r.code,
    state: r.state,
    itemIds,
    itemCount: counts.itemCount,
    childContainerIds,
    childContainerCount: counts.childContainerCount,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

export function toContentDto(r: ContentRow) {
  return {
    itemId: r.itemId,
    containerId: r.containerId,
    state: r.state,
    packedAt: r.packedAt,
    packedBy: r.packedBy,
    receivedAt: r.receivedAt,
    receivedBy: r.receivedBy,
    receivedLocationId: r.receivedLocationId,
    receivedCondition: r.receivedCondition,
    returnedAt: r.returnedAt,
  };
}

export function toDiscrepancyDto(r: DiscrepancyRow) {
  return {
    id: r.id,
    itemId: r.itemId,
    kind: r.kind,
    note: r.note,
    recordedAt: r.recordedAt,
    recordedBy: r.recordedBy,
    resolvedAt: r.resolvedAt,
    resolvedBy: r.resolvedBy,
  };
}

// ---------------------------------------------------------------- loading

export async function findShipment(ctx: TenantCtx, id: string): Promise<ShipmentRow | undefined> {
  return (await db(ctx).select().from(shipments).where(eq(shipments.id, id)))[0];
}

export async function loadShipment(ctx: TenantCtx, id: string): Promise<ShipmentRow> {
  const row = await findShipment(ctx, id);
  if (!row) throw notFound("shipment");
  return row;
}

export async function findContainer(ctx: TenantCtx, id: string): Promise<ContainerRow | undefined> {
  return (await db(ctx).select().from(shipmentContainers).where(eq(shipmentContainers.id, id)))[0];
}

export async function loadContainer(ctx: TenantCtx, id: string): Promise<ContainerRow> {
  const row = await findContainer(ctx, id);
  if (!row) throw notFound("container");
  return row;
}

/** Items packed directly in the container now, in packing order. */
export async function packedIn(ctx: TenantCtx, containerId: string): Promise<ContentRow[]> {
  return db(ctx)
    .select()
    .from(shipmentItems)
    .where(and(eq(shipmentItems.containerId, containerId), eq(shipmentItems.state, "packed")))
    .orderBy(asc(shipmentItems.packedAt), asc(shipmentItems.id));
}

/** Containers directly inside the container now, oldest first. */
export async function childrenOf(ctx: TenantCtx, containerId: string): Promise<ContainerRow[]> {
  return db(ctx)
    .select()
    .from(shipmentContainers)
    .where(eq(shipmentContainers.parentContainerId, containerId))
    .orderBy(asc(shipmentContainers.createdAt), asc(shipmentContainers.id));
}

/** The items of the shipment still in its containers (in transit once dispatched), in packing order. */
export async function packedInShipment(ctx: TenantCtx, shipmentId: string): Promise<ContentRow[]> {
  return db(ctx)
    .select()
    .from(shipmentItems)
    .where(and(eq(shipmentItems.shipmentId, shipmentId), eq(shipmentItems.state, "packed")))
    .orderBy(asc(shipmentItems.packedAt), asc(shipmentItems.id));
}

/**
 * The container as its routes show it: the first NESTED_MAX items and child
 * containers directly inside it now, with their exact counts, read in one snapshot.
 */
export async function containerDto(ctx: TenantCtx, id: string) {
  const packedHere = and(eq(shipmentItems.containerId, id), eq(shipmentItems.state, "packed"));
  const [rows, inside, itemCount, children, childCount] = await readSnapshot(ctx, (q) => [
    q.select().from(shipmentContainers).where(eq(shipmentContainers.id, id)),
    q.select({ itemId: shipmentItems.itemId }).from(shipmentItems).where(packedHere).orderBy(asc(shipmentItems.packedAt), asc(shipmentItems.id)).limit(NESTED_MAX),
    q.select({ n: count() }).from(shipmentItems).where(packedHere),
    q
      .select({ id: shipmentContainers.id })
      .from(shipmentContainers)
      .where(eq(shipmentContainers.parentContainerId, id))
      .orderBy(asc(shipmentContainers.createdAt), asc(shipmentContainers.id))
      .limit(NESTED_MAX),
    q.select({ n: count() }).from(shipmentContainers).where(eq(shipmentContainers.parentContainerId, id)),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("container");
  return toContainerDto(
    row,
    inside.map((c) => c.itemId),
    children.map((c) => c.id),
    { itemCount: Number(itemCount[0]?.n ?? 0), childContainerCount: Number(childCount[0]?.n ?? 0) },
  );
}

/** Whether `containerId` is `outerId` itself or sits (at any depth) inside it. */
export async function isInside(ctx: TenantCtx, containerId: string, outerId: string): Promise<boolean> {
  let current: string | null = containerId;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current)) {
    if (current === outerId) return true;
    seen.add(current);
    current = (await findContainer(ctx, current))?.parentContainerId ?? null;
  }
  return false;
}

// ---------------------------------------------------------------- saving

/** Shipments and containers already given their new version in the open transaction. */
const SAVED = Symbol("transit.savedRecords");
const saved = (ctx: TenantCtx) => txScoped(ctx, SAVED, () => new Set<string>());

/**
 * Applies `patch` to the shipment as it is now in the open transaction: version + 1
 * the first time this transaction changes it, updatedAt = now. An empty patch still
 * marks the shipment changed (its containers or contents did).
 */
export async function saveShipment(ctx: TenantCtx, id: string, patch: Partial<ShipmentRow> = {}): Promise<ShipmentRow> {
  const row = await loadShipment(ctx, id);
  const version = saved(ctx).has(`s:${id}`) ? row.version : row.version + 1;
  const next: ShipmentRow = { ...row, ...patch, version, updatedAt: ctx.nowIso };
  await writer(ctx)
    .update(shipments)
    .set({ ...patch, version, updatedAt: ctx.nowIso })
    .where(eq(shipments.id, id));
  saved(ctx).add(`s:${id}`);
  return next;
}

/** saveShipment for a container. */
export async function saveContainer(ctx: TenantCtx, id: string, patch: Partial<ContainerRow> = {}): Promise<ContainerRow> {
  const row = await loadContainer(ctx, id);
  const version = saved(ctx).has(`c:${id}`) ? row.version : row.version + 1;
  const next: ContainerRow = { ...row, ...patch, version, updatedAt: ctx.nowIso };
  await writer(ctx)
    .update(shipmentContainers)
    .set({ ...patch, version, updatedAt: ctx.nowIso })
    .where(eq(shipmentContainers.id, id));
  saved(ctx).add(`c:${id}`);
  return next;
}

/** Marks a record created in this transaction as already at its version. */
export function markSaved(ctx: TenantCtx, kind: "s" | "c", id: string): void {
  saved(ctx).add(`${kind}:${id}`);
}

// ---------------------------------------------------------------- aggregation movements

/**
 * The EPCIS aggregation of an item into (packed) or out of (unpacked) a shipment
 * container. The kernel's container columns are for item-in-item containment, so
 * the shipment container travels in `data` (parentContainerId, containerCode);
 * the item stays where it is recorded (its business location).
 */
export async function recordAggregation(
  ctx: TenantCtx,
  kind: "packed" | "unpacked",
  item: { id: string; locationId: string },
  container: ContainerRow,
  why: { reason?: string | null; data?: Record<string, unknown> } = {},
): Promise<void> {
  await recordMovement(ctx, {
    itemId: item.id,
    kind,
    bizLocationId: item.locationId,
    reason: why.reason ?? null,
    data: {
      shipmentId: container.shipmentId,
      parentContainerId: container.id,
      containerCode: container.code,
      containerKind: container.kind,
      ...why.data,
    },
  });
}

/** 409 duplicate when another container carries this code. */
export async function assertCodeFree(ctx: TenantCtx, code: string): Promise<void> {
  const clash = (await db(ctx).select({ id: shipmentContainers.id }).from(shipmentContainers).where(eq(shipmentContainers.code, code)))[0];
  if (clash) throw new AppError("duplicate", `container code ${JSON.stringify(code)} is already in use (container ${clash.id})`, { extras: { containerId: clash.id } });
}
