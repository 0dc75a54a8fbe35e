// The item record's one write path. Every change to an item (a command's own
// fields, a block set or cleared, contents following their container) goes through
// changeItem, which re-derives availability and gives the item at most one new
// version per transaction, however many steps of the request touch it.
import { and, eq } from "drizzle-orm";
import { invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, txScoped, writer } from "../../platform/db/transactions.ts";
import { insertRow } from "../../platform/db/prepared.ts";
import { pendingImportOf, visibleRows } from "../../platform/db/pending.ts";
import { canonicalJson } from "../../platform/json/canonical-json.ts";
import { appendEvent as appendOutboxEvent } from "../../platform/outbox/outbox.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { itemBlocks, itemHistory, items } from "./kernel.tables.ts";
import { assertLifecycleMove, deriveAvailability, type BlockKind, type Lifecycle } from "./lifecycle.ts";
import type { ItemRow } from "./item.schemas.ts";

/** Fields a command may change; id, version, times, author and availability are the kernel's. */
export type ItemPatch = Partial<Omit<ItemRow, "id" | "version" | "createdAt" | "updatedAt" | "createdBy" | "availability">>;

/** Items already given their new version in the open transaction. */
const BUMPED = Symbol("kernel.bumpedItems");
const bumped = (ctx: TenantCtx) => txScoped(ctx, BUMPED, () => new Set<string>());

/** The item or 404. */
export async function loadItem(ctx: TenantCtx, id: string): Promise<ItemRow> {
  const row = await findItem(ctx, id);
  if (!row) throw notFound("item");
  return row;
}

/** The item, or a 400 at `path` when the body names an item that does not exist. */
export async function requireItem(ctx: TenantCtx, id: string, path: string): Promise<ItemRow> {
  const row = await findItem(ctx, id);
  if (!row) throw invalid(path, "unknown item");
  return row;
}

/** The item, unless an import still being applied keeps it pending (then it is missing, as for a 404). */
export async function findItem(ctx: TenantCtx, id: string): Promise<ItemRow | undefined> {
  return (await db(ctx).select().from(items).where(and(eq(items.id, id), visibleRows(items, ctx))))[0];
}

/** The kinds of block the item has now (read in the open transaction). */
export async function blockKindsOf(ctx: TenantCtx, itemId: string): Promise<BlockKind[]> {
  const q = db(ctx);
  return (await q.select({ kind: itemBlocks.kind }).from(itemBlocks).where(eq(itemBlocks.itemId, itemId))).map((r) => r.kind);
}

/** Registers a new item (version 1); nothing blocks it yet, so availability follows lifecycle and quality. */
export async function insertItem(ctx: TenantCtx, row: Omit<ItemRow, "availability" | "pendingImportId">): Promise<ItemRow> {
  const full: ItemRow = {
    ...row,
    availability: deriveAvailability({ lifecycle: row.lifecycle, qualityStatus: row.qualityStatus, blocks: [] }),
    pendingImportId: pendingImportOf(ctx),
  };
  await insertRow(writer(ctx), items, full);
  markBumped(ctx, full.id);
  return full;
}

/**
 * Applies `patch` to the item as it is now in the open transaction, re-derives its
 * availability from lifecycle, quality and blocks, and writes whatever changed:
 * version + 1 the first time this transaction changes the item, updatedAt = now.
 * Returns the item as stored (unchanged when nothing differed).
 */
export async function changeItem(ctx: TenantCtx, itemId: string, patch: ItemPatch = {}): Promise<ItemRow> {
  const tx = writer(ctx);
  const row = await loadItem(ctx, itemId);
  const change: Partial<ItemRow> = {};
  for (const key of Object.keys(patch) as Array<keyof ItemPatch>) {
    const v = patch[key];
    if (v !== undefined && !sameValue(v, row[key])) (change as Record<string, unknown>)[key] = v;
  }
  const availability = deriveAvailability({
    lifecycle: change.lifecycle ?? row.lifecycle,
    qualityStatus: change.qualityStatus ?? row.qualityStatus,
    blocks: await blockKindsOf(ctx, itemId),
  });
  if (availability !== row.availability) change.availability = availability;
  if (Object.keys(change).length === 0) return row;
  const first = !isBumped(ctx, itemId);
  const version = first ? row.version + 1 : row.version;
  const next: ItemRow = { ...row, ...change, version, updatedAt: ctx.nowIso };
  await tx.update(items).set({ ...change, version, updatedAt: ctx.nowIso }).where(eq(items.id, itemId));
  markBumped(ctx, itemId);
  // The live streams' `item.changed` (the register's lifecycle and availability, beyond the §10
  // events), once per item and transaction; it names the item only: a client re-reads it.
  if (first) await appendOutboxEvent(ctx, { kind: "item.changed", aggregateId: itemId, occurredAt: ctx.nowIso, data: { itemId } });
  return next;
}

/**
 * Moves the item's lifecycle to `to` (contract §9; any move the table does not list
 * is 409 state_conflict) through changeItem, and records it in the item's history as
 * `kind` with from, to and `data`. Returns the item as stored.
 */
export async function moveLifecycle(
  ctx: TenantCtx,
  itemId: string,
  to: Lifecycle,
  kind: string,
  data: Record<string, unknown> = {},
  reason: string | null = null,
): Promise<ItemRow> {
  const row = await loadItem(ctx, itemId);
  assertLifecycleMove(row.lifecycle, to);
  const saved = await changeItem(ctx, itemId, { lifecycle: to });
  await recordItemHistory(ctx, itemId, kind, { from: row.lifecycle, to, ...data }, reason);
  return saved;
}

/** Appends a non-physical fact about an item (actor = the context's). */
export async function recordItemHistory(
  ctx: TenantCtx,
  itemId: string,
  kind: string,
  data: Record<string, unknown>,
  reason: string | null = null,
): Promise<void> {
  await insertRow(writer(ctx), itemHistory, {
    id: ctx.deps.newId(),
    itemId,
    kind,
    actorId: ctx.actorId,
    recordedAt: ctx.nowIso,
    reason,
    data,
    pendingImportId: pendingImportOf(ctx),
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // JSON attributes compare by content, whatever their key order.
  return typeof a === "object" && a !== null && typeof b === "object" && b !== null && canonicalJson(a) === canonicalJson(b);
}

function isBumped(ctx: TenantCtx, itemId: string): boolean {
  return bumped(ctx).has(itemId);
}

function markBumped(ctx: TenantCtx, itemId: string): void {
  bumped(ctx).add(itemId);
}
