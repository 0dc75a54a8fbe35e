// Containment: an item may be packed in another (serialised) item. Items packed in
// a container travel with it: whenever a container's location changes (move,
// return, a corrected movement, a received shipment), everything inside it, at any
// depth, follows in the same transaction with one `moved` movement each.
import { eq, sql } from "drizzle-orm";
import { db, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { items } from "./kernel.tables.ts";
import { changeItem } from "./items.ts";
import { recordMovement } from "./movements.ts";

/** Bound on walking up a containment chain (a chain is acyclic by construction; this only ends a corrupt one). */
const CONTAINMENT_DEPTH_MAX = 10_000;

/** Moves everything inside `containerId` (any depth) to `toLocationId`; returns how many moved. */
export async function moveContents(
  ctx: TenantCtx,
  containerId: string,
  toLocationId: string,
  why: { reason: string | null; data?: Record<string, unknown> },
): Promise<number> {
  // UNION (not UNION ALL) also ends on a containment cycle.
  const contents = await writer(ctx).all<{ id: string; location_id: string; container_id: string }>(sql`
    WITH RECURSIVE inside(id) AS (
      SELECT id FROM items WHERE container_id = ${containerId}
      UNION SELECT i.id FROM items i JOIN inside ON i.container_id = inside.id
    )
    SELECT items.id, items.location_id, items.container_id FROM items JOIN inside ON items.id = inside.id`);
  let moved = 0;
  for (const c of contents) {
    if (c.location_id === toLocationId) continue;
    await changeItem(ctx, c.id, { locationId: toLocationId });
    await recordMovement(ctx, {
      itemId: c.id,
      kind: "moved",
      fromLocationId: c.location_id,
      toLocationId,
      fromContainerId: c.container_id,
      toContainerId: c.container_id,
      bizLocationId: toLocationId,
      reason: why.reason,
      data: { withContainerId: containerId, ...why.data },
    });
    moved++;
  }
  return moved;
}

/** Whether `itemId` is `containerId` itself or one of the containers around it. */
export async function isWithin(ctx: TenantCtx, containerId: string, itemId: string): Promise<boolean> {
  const q = db(ctx);
  let current: string | null = containerId;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current) && seen.size < CONTAINMENT_DEPTH_MAX) {
    if (current === itemId) return true;
    seen.add(current);
    const parent: { containerId: string | null } | undefined = (await q.select({ containerId: items.containerId }).from(items).where(eq(items.id, current)))[0];
    current = parent?.containerId ?? null;
  }
  return false;
}
