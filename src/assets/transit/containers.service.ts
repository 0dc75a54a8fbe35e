// Containers of a draft shipment: adding one, packing items and child containers
// into it, repacking between containers of the same shipment, unpacking. Every
// item put in gets the kernel's `packed` block (source = the container) and a
// `packed` movement; every item taken out loses it and gets `unpacked`. Once the
// shipment leaves draft, its containers are sealed (409).
import { and, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { appendEvent } from "../../platform/db/history.ts";
import { items } from "../kernel/kernel.tables.ts";
import type { ItemRow } from "../kernel/index.ts";
import { requireItem } from "../kernel/index.ts";
import { clearBlock, setBlock } from "../kernel/index.ts";
import { locationPath } from "../locations/index.ts";
import { gs1CheckDigit } from "../kernel/index.ts";
import { shipmentContainers, shipmentEvents, shipmentItems } from "./transit.tables.ts";
import { assertContainerTakes, assertShipmentAction } from "./transit.states.ts";
import {
  assertCodeFree,
  childrenOf,
  containerDto,
  findContainer,
  isInside,
  loadContainer,
  loadShipment,
  markSaved,
  packedIn,
  recordAggregation,
  saveContainer,
  saveShipment,
  type ContainerRow,
  type ContentRow,
  type ShipmentRow,
} from "./transit.records.ts";
import type { CreateContainer, PackContainer, RepackContainer, UnpackContainer } from "./transit.schemas.ts";

type ContainerDto = Awaited<ReturnType<typeof containerDto>>;

export async function getContainer(ctx: RequestCtx, id: string): Promise<ContainerDto> {
  return containerDto(ctx, id);
}

/** 400 at `/body/<field>/<i>` for an id listed twice. */
function assertUnique(ids: readonly string[] | undefined, field: string): void {
  const seen = new Set<string>();
  ids?.forEach((id, i) => {
    if (seen.has(id)) throw invalid(`/body/${field}/${i}`, "listed twice");
    seen.add(id);
  });
}

/** The containers a body names, each a container of the shipment; unknown or foreign is 400 at its path. */
async function requireContainers(ctx: TenantCtx, ids: readonly string[] | undefined, field: string): Promise<ContainerRow[]> {
  const out: ContainerRow[] = [];
  for (const [i, id] of (ids ?? []).entries()) {
    const row = await findContainer(ctx, id);
    if (!row) throw invalid(`/body/${field}/${i}`, "unknown container");
    out.push(row);
  }
  return out;
}

function assertSameShipment(rows: ContainerRow[], shipmentId: string, path: (i: number) => string): void {
  rows.forEach((r, i) => {
    if (r.shipmentId !== shipmentId) throw invalid(path(i), "a container of another shipment");
  });
}

/** An 18-digit code is an SSCC: its GS1 check digit must hold. */
function assertCode(code: string | undefined): void {
  if (code !== undefined && /^\d{18}$/.test(code) && gs1CheckDigit(code.slice(0, 17)) !== Number(code[17])) {
    throw invalid("/body/code", "an 18-digit code is an SSCC and its check digit is wrong");
  }
}

// ---------------------------------------------------------------- POST /shipments/{id}/containers

export async function createContainer(ctx: RequestCtx, shipmentId: string, input: z.output<typeof CreateContainer>): Promise<ContainerDto> {
  assertCode(input.code);
  return withTx(ctx, async (ctx) => {
    const parent = input.parentContainerId !== undefined ? await findContainer(ctx, input.parentContainerId) : undefined;
    if (input.parentContainerId !== undefined && !parent) throw invalid("/body/parentContainerId", "unknown container");
    const shipment = await loadShipment(ctx, shipmentId);
    if (parent) assertSameShipment([parent], shipment.id, () => "/body/parentContainerId");
    assertVersion("shipment", shipment, input.expectedVersion);
    assertShipmentAction(shipment.status, "change_containers");
    if (parent) assertContainerTakes(parent, "the parent container");
    if (input.code !== undefined) await assertCodeFree(ctx, input.code);

    const row: ContainerRow = {
      ...newRecordMeta(ctx),
      shipmentId: shipment.id,
      parentContainerId: parent?.id ?? null,
      kind: input.kind,
      label: input.label ?? null,
      code: input.code ?? null,
      state: "open",
    };
    await writer(ctx).insert(shipmentContainers).values(row);
    markSaved(ctx, "c", row.id);
    if (parent) await saveContainer(ctx, parent.id, { state: "packed" });
    await saveShipment(ctx, shipment.id);
    await appendEvent(ctx, shipmentEvents, shipment.id, "container_added", null, { containerId: row.id, kind: row.kind, parentContainerId: row.parentContainerId, code: row.code });
    return containerDto(ctx, row.id);
  });
}

// ---------------------------------------------------------------- POST /containers/{id}/pack

/**
 * Why an item cannot be packed into this shipment, as a 409: it must be active and
 * available (not checked out, reserved, in transit, on hold or in maintenance), in
 * no other shipment container, neither inside nor holding another item (kernel
 * containment), and at the shipment's origin or a location inside it.
 */
async function assertPackable(ctx: TenantCtx, item: ItemRow, shipment: ShipmentRow): Promise<void> {
  const conflict = (detail: string, extras: Record<string, unknown> = {}) => new AppError("state_conflict", detail, { extras: { itemId: item.id, ...extras } });
  const packed = (await db(ctx).select().from(shipmentItems).where(and(eq(shipmentItems.itemId, item.id), eq(shipmentItems.state, "packed"))))[0];
  if (packed) throw conflict(`item ${item.id} is already packed in container ${packed.containerId}`, { containerId: packed.containerId });
  if (item.lifecycle !== "active") throw conflict(`item ${item.id} is ${item.lifecycle}; only active items can be packed`);
  // Derived from every block: available means no custody, transit, hold or maintenance block.
  if (item.availability !== "available") throw conflict(`item ${item.id} is ${item.availability}; only available items can be packed`);
  if (item.containerId !== null) throw conflict(`item ${item.id} is inside item ${item.containerId}; move it out first`);
  const holds = (await db(ctx).select({ id: items.id }).from(items).where(eq(items.containerId, item.id)).limit(1))[0];
  if (holds) throw conflict(`item ${item.id} holds other items; pack them on their own or move them out first`);
  const path = await locationPath(db(ctx), item.locationId);
  if (!path.some((l) => l.id === shipment.originLocationId)) {
    throw conflict(`item ${item.id} is at location ${item.locationId}, not at the shipment's origin ${shipment.originLocationId}`);
  }
}

export async function packContainer(ctx: RequestCtx, id: string, input: z.output<typeof PackContainer>): Promise<ContainerDto> {
  if (!input.itemIds && !input.containerIds) throw invalid("/body", "name at least one of itemIds or containerIds");
  assertUnique(input.itemIds, "itemIds");
  assertUnique(input.containerIds, "containerIds");
  return withTx(ctx, async (ctx) => {
    const toPack: ItemRow[] = [];
    for (const [i, itemId] of (input.itemIds ?? []).entries()) toPack.push(await requireItem(ctx, itemId, `/body/itemIds/${i}`));
    const children = await requireContainers(ctx, input.containerIds, "containerIds");
    const container = await loadContainer(ctx, id);
    const shipment = await loadShipment(ctx, container.shipmentId);
    assertSameShipment(children, shipment.id, (i) => `/body/containerIds/${i}`);
    assertVersion("container", container, input.expectedVersion);
    assertShipmentAction(shipment.status, "change_containers");
    assertContainerTakes(container);
    for (const child of children) {
      if (await isInside(ctx, container.id, child.id)) {
        throw new AppError("cycle_detected", `container ${child.id} cannot go into itself or into a container inside it`);
      }
      if (child.parentContainerId !== null) {
        throw new AppError("state_conflict", `container ${child.id} is inside container ${child.parentContainerId}; repack it to move it`);
      }
      assertContainerTakes(child, "container");
    }
    for (const item of toPack) await assertPackable(ctx, item, shipment);

    for (const item of toPack) {
      await writer(ctx).insert(shipmentItems).values({
        id: ctx.deps.newId(),
        shipmentId: shipment.id,
        itemId: item.id,
        containerId: container.id,
        state: "packed",
        packedAt: ctx.nowIso,
        packedBy: ctx.actorId,
      });
      await setBlock(ctx, item.id, "packed", container.id);
      await recordAggregation(ctx, "packed", item, container);
    }
    for (const child of children) await saveContainer(ctx, child.id, { parentContainerId: container.id });
    await saveContainer(ctx, container.id, { state: "packed" });
    await saveShipment(ctx, shipment.id);
    await appendEvent(ctx, shipmentEvents, shipment.id, "packed", null, {
      containerId: container.id,
      itemIds: toPack.map((i) => i.id),
      containerIds: children.map((c) => c.id),
    });
    return containerDto(ctx, container.id);
  });
}

// ---------------------------------------------------------------- POST /containers/{id}/repack

/** The listed entries (each must be directly in the container: else 400 at its path), or all of them when none are listed. */
function pick<T>(inside: T[], key: (t: T) => string, listed: readonly string[] | undefined, field: string): T[] {
  if (!listed) return [];
  const byId = new Map(inside.map((t) => [key(t), t]));
  return listed.map((id, i) => {
    const found = byId.get(id);
    if (!found) throw invalid(`/body/${field}/${i}`, "not directly in this container");
    return found;
  });
}

/** Moves a packed item from one container of the shipment to another: the aggregation changes (unpacked, then packed). */
async function movePacked(ctx: TenantCtx, entry: ContentRow, from: ContainerRow, to: ContainerRow, reason: string | null): Promise<void> {
  await writer(ctx).update(shipmentItems).set({ containerId: to.id }).where(eq(shipmentItems.id, entry.id));
  await clearBlock(ctx, entry.itemId, "packed", from.id);
  const item = await setBlock(ctx, entry.itemId, "packed", to.id);
  await recordAggregation(ctx, "unpacked", item, from, { reason, data: { repackedTo: to.id } });
  await recordAggregation(ctx, "packed", item, to, { reason, data: { repackedFrom: from.id } });
}

export async function repackContainer(ctx: RequestCtx, id: string, input: z.output<typeof RepackContainer>): Promise<ContainerDto> {
  if (input.parentContainerId !== undefined) {
    if (input.itemIds) throw invalid("/body/itemIds", "only with toContainerId");
    if (input.containerIds) throw invalid("/body/containerIds", "only with toContainerId");
  }
  assertUnique(input.itemIds, "itemIds");
  assertUnique(input.containerIds, "containerIds");
  const reason = input.reason || null;
  return withTx(ctx, async (ctx) => {
    const targetId = input.toContainerId ?? input.parentContainerId ?? null;
    const targetPath = input.toContainerId !== undefined ? "/body/toContainerId" : "/body/parentContainerId";
    const target = targetId !== null ? await findContainer(ctx, targetId) : undefined;
    if (targetId !== null && !target) throw invalid(targetPath, "unknown container");
    const container = await loadContainer(ctx, id);
    const shipment = await loadShipment(ctx, container.shipmentId);
    if (target) {
      assertSameShipment([target], shipment.id, () => targetPath);
      if (target.id === container.id) throw invalid(targetPath, "the container itself");
    }
    assertVersion("container", container, input.expectedVersion);
    assertShipmentAction(shipment.status, "change_containers");

    if (input.toContainerId !== undefined && target) {
      // Contents move from this container to the target; this one keeps its state (a repack is recorded, not an unpacking).
      if (container.state !== "packed") throw new AppError("state_conflict", `the container is ${container.state}; there is nothing to repack`, { extras: { state: container.state } });
      assertContainerTakes(target, "the target container");
      const [inside, children] = [await packedIn(ctx, container.id), await childrenOf(ctx, container.id)];
      const everything = !input.itemIds && !input.containerIds;
      const moving = everything ? inside : pick(inside, (e) => e.itemId, input.itemIds, "itemIds");
      const movingChildren = everything ? children : pick(children, (c) => c.id, input.containerIds, "containerIds");
      if (moving.length + movingChildren.length === 0) throw new AppError("state_conflict", "the container is empty; there is nothing to repack");
      for (const child of movingChildren) {
        if (await isInside(ctx, target.id, child.id)) throw new AppError("cycle_detected", `container ${child.id} cannot go into itself or into a container inside it`);
      }
      for (const entry of moving) await movePacked(ctx, entry, container, target, reason);
      for (const child of movingChildren) await saveContainer(ctx, child.id, { parentContainerId: target.id });
      await saveContainer(ctx, container.id);
      await saveContainer(ctx, target.id, { state: "packed" });
      await appendEvent(ctx, shipmentEvents, shipment.id, "repacked", reason, {
        containerId: container.id,
        toContainerId: target.id,
        itemIds: moving.map((e) => e.itemId),
        containerIds: movingChildren.map((c) => c.id),
      });
    } else {
      // The container itself changes parent (null: the top level), its contents with it.
      if (container.state === "unpacked") throw new AppError("state_conflict", "the container is unpacked; there is nothing to repack", { extras: { state: container.state } });
      if (container.parentContainerId === (target?.id ?? null)) throw new AppError("state_conflict", target ? `the container is already in container ${target.id}` : "the container is already at the top level");
      if (target) {
        assertContainerTakes(target, "the new parent container");
        if (await isInside(ctx, target.id, container.id)) throw new AppError("cycle_detected", "a container cannot go into itself or into a container inside it");
      }
      const fromParent = container.parentContainerId;
      await saveContainer(ctx, container.id, { parentContainerId: target?.id ?? null });
      if (target) await saveContainer(ctx, target.id, { state: "packed" });
      if (fromParent !== null) await saveContainer(ctx, fromParent);
      await appendEvent(ctx, shipmentEvents, shipment.id, "repacked", reason, { containerId: container.id, fromParentContainerId: fromParent, toParentContainerId: target?.id ?? null });
    }
    await saveShipment(ctx, shipment.id);
    return containerDto(ctx, container.id);
  });
}

// ---------------------------------------------------------------- POST /containers/{id}/unpack

export async function unpackContainer(ctx: RequestCtx, id: string, input: z.output<typeof UnpackContainer>): Promise<ContainerDto> {
  assertUnique(input.itemIds, "itemIds");
  assertUnique(input.containerIds, "containerIds");
  const reason = input.reason || null;
  return withTx(ctx, async (ctx) => {
    const container = await loadContainer(ctx, id);
    const shipment = await loadShipment(ctx, container.shipmentId);
    assertVersion("container", container, input.expectedVersion);
    assertShipmentAction(shipment.status, "change_containers");
    if (container.state !== "packed") throw new AppError("state_conflict", `the container is ${container.state}; there is nothing to unpack`, { extras: { state: container.state } });
    const [inside, children] = [await packedIn(ctx, container.id), await childrenOf(ctx, container.id)];
    const everything = !input.itemIds && !input.containerIds;
    const taking = everything ? inside : pick(inside, (e) => e.itemId, input.itemIds, "itemIds");
    const takingChildren = everything ? children : pick(children, (c) => c.id, input.containerIds, "containerIds");

    for (const entry of taking) {
      // Out of the container before dispatch is out of the shipment; the history keeps it.
      await writer(ctx).delete(shipmentItems).where(eq(shipmentItems.id, entry.id));
      const item = await clearBlock(ctx, entry.itemId, "packed", container.id);
      await recordAggregation(ctx, "unpacked", item, container, { reason });
    }
    for (const child of takingChildren) await saveContainer(ctx, child.id, { parentContainerId: null });
    const emptied = taking.length === inside.length && takingChildren.length === children.length;
    await saveContainer(ctx, container.id, { state: emptied ? "unpacked" : "packed" });
    await saveShipment(ctx, shipment.id);
    await appendEvent(ctx, shipmentEvents, shipment.id, "unpacked", reason, {
      containerId: container.id,
      itemIds: taking.map((e) => e.itemId),
      containerIds: takingChildren.map((c) => c.id),
      emptied,
    });
    return containerDto(ctx, container.id);
  });
}
