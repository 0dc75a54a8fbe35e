// Items packed in a container travel with it: whenever a container's location
// changes (move, return, a corrected movement), everything inside it, at any depth,
// follows in the same transaction with one `moved` movement each.
import { eq, sql } from "drizzle-orm";
import type { Querier, RequestCtx } from "../../platform/http/context.ts";
import { recordMovement } from "../movements/movements.service.ts";
import { items } from "./items.tables.ts";

export async function moveContents(
  ctx: RequestCtx,
  tx: Querier,
  containerId: string,
  toLocationId: string,
  why: { reason: string | null; data?: Record<string, unknown> },
): Promise<number> {
  // UNION (not UNION ALL) also ends on a containment cycle.
  const contents = await tx.all<{ id: string; location_id: string; container_id: string; version: number }>(sql`
    WITH RECURSIVE inside(id) AS (
      SELECT id FROM items WHERE container_id = ${containerId}
      UNION SELECT i.id FROM items i JOIN inside ON i.container_id = inside.id
    )
    SELECT items.id, items.location_id, items.container_id, items.version FROM items JOIN inside ON items.id = inside.id`);
  let moved = 0;
  for (const c of contents) {
    if (c.location_id === toLocationId) continue;
    await tx.update(items).set({ locationId: toLocationId, version: c.version + 1, updatedAt: ctx.nowIso }).where(eq(items.id, c.id));
    await recordMovement(ctx, tx, {
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
