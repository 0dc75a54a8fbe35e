// The only way custody, transit, hub holds and maintenance change an item's
// availability: each sets a block while its record holds the item (an open
// checkout, a started reservation, a dispatched shipment, an open work order, a
// hold) and clears it when it lets go. Setting or clearing re-derives availability
// through the item's one write path.
import { and, eq } from "drizzle-orm";
import { db, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { itemBlocks } from "./kernel.tables.ts";
import { changeItem } from "./items.ts";
import type { BlockKind } from "./lifecycle.ts";
import type { ItemRow } from "./item.schemas.ts";

/** `source` (a checkout, shipment, work order or hold id) blocks the item as `kind`; setting it twice is one block. */
export async function setBlock(ctx: TenantCtx, itemId: string, kind: BlockKind, sourceId: string): Promise<ItemRow> {
  await writer(ctx).insert(itemBlocks).values({ itemId, kind, sourceId, createdAt: ctx.nowIso }).onConflictDoNothing();
  return changeItem(ctx, itemId);
}

/** `source` no longer blocks the item as `kind` (clearing an absent block changes nothing). */
export async function clearBlock(ctx: TenantCtx, itemId: string, kind: BlockKind, sourceId: string): Promise<ItemRow> {
  await writer(ctx)
    .delete(itemBlocks)
    .where(and(eq(itemBlocks.itemId, itemId), eq(itemBlocks.kind, kind), eq(itemBlocks.sourceId, sourceId)));
  return changeItem(ctx, itemId);
}

/** Whether the item has a block of this kind now. */
export async function hasBlock(ctx: TenantCtx, itemId: string, kind: BlockKind): Promise<boolean> {
  const rows = await db(ctx)
    .select({ kind: itemBlocks.kind })
    .from(itemBlocks)
    .where(and(eq(itemBlocks.itemId, itemId), eq(itemBlocks.kind, kind)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Why an item cannot be moved by a command that puts it somewhere (a move, a hub
 * task, an audit correction), or null when it can. Read from the blocks
 * themselves: a quality hold or maintenance outranks them in the derived
 * availability and would hide them. A checked-out item moves by transfer or
 * return, one in transit by receiving its shipment, a packed one with its container.
 */
export async function immobility(ctx: TenantCtx, item: Pick<ItemRow, "id" | "lifecycle">): Promise<string | null> {
  if (item.lifecycle === "disposed" || item.lifecycle === "consumed") return item.lifecycle;
  if (await hasBlock(ctx, item.id, "checked_out")) return "checked out";
  if (await hasBlock(ctx, item.id, "in_transit")) return "in transit";
  if (await hasBlock(ctx, item.id, "packed")) return "packed in a shipment container";
  return null;
}
