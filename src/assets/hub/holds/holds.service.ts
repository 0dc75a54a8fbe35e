// Quality holds: items held for inspection, damage, a recall… Placing a hold sets
// a kernel `hold` block on each item (source = the hold), which makes it on_hold,
// and appends a `held` movement; resolving clears the block and appends
// `hold_released`. The hub never changes an item's lifecycle (see README.md).
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { withTx, writer } from "../../../platform/db/transactions.ts";
import { insertRow } from "../../../platform/db/prepared.ts";
import { loadOr404, saveVersion } from "../../../platform/db/records.ts";
import { appendEvent } from "../../../platform/db/history.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { changeItem, findItem, requireItem } from "../../kernel/index.ts";
import { clearBlock, setBlock } from "../../kernel/index.ts";
import { recordMovement } from "../../kernel/index.ts";
import { hubRecordEvents } from "../hub.tables.ts";
import { qualityHolds } from "./holds.tables.ts";
import { assertHoldActive } from "../hub.states.ts";
import type { CreateQualityHold, QualityHoldDto, ResolveQualityHold } from "./holds.schemas.ts";

export type QualityHoldRow = typeof qualityHolds.$inferSelect;

export function toQualityHoldDto(r: QualityHoldRow): QualityHoldDto {
  return {
    id: r.id,
    kind: r.kind,
    reason: r.reason,
    reference: r.reference,
    itemIds: r.itemIds,
    status: r.status,
    placedAt: r.placedAt,
    resolution: r.resolution,
    resolutionNote: r.resolutionNote,
    resolvedAt: r.resolvedAt,
    resolvedBy: r.resolvedBy,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

/** Places the hold: every item blocked `hold` and a `held` movement each, in one transaction. */
export async function createQualityHold(ctx: RequestCtx, input: z.output<typeof CreateQualityHold>): Promise<QualityHoldDto> {
  const firstAt = new Map<string, number>();
  input.itemIds.forEach((id, i) => {
    const first = firstAt.get(id);
    if (first !== undefined) throw invalid(`/body/itemIds/${i}`, `duplicate of /body/itemIds/${first} (${id})`);
    firstAt.set(id, i);
  });
  return withTx(ctx, async (ctx) => {
    const held = [];
    for (const [i, id] of input.itemIds.entries()) held.push(await requireItem(ctx, id, `/body/itemIds/${i}`));
    for (const item of held) {
      // Nothing is left to inspect in a disposed or consumed item.
      if (item.lifecycle === "disposed" || item.lifecycle === "consumed") {
        throw new AppError("state_conflict", `item ${item.id} is ${item.lifecycle} and cannot be held`, { extras: { itemId: item.id } });
      }
    }
    const row: QualityHoldRow = {
      ...newRecordMeta(ctx),
      kind: input.kind,
      reason: input.reason,
      reference: input.reference ?? null,
      itemIds: input.itemIds,
      status: "active",
      placedAt: ctx.nowIso,
      resolution: null,
      resolutionNote: null,
      resolvedAt: null,
      resolvedBy: null,
    };
    await insertRow(writer(ctx), qualityHolds, row);
    for (const item of held) {
      await setBlock(ctx, item.id, "hold", row.id);
      await recordMovement(ctx, {
        itemId: item.id,
        kind: "held",
        bizLocationId: item.locationId,
        reason: input.reason,
        data: { holdId: row.id, holdKind: input.kind },
      });
    }
    await appendEvent(ctx, hubRecordEvents, row.id, "placed", input.reason, { itemIds: input.itemIds, kind: input.kind }, { recordType: "hold" });
    return toQualityHoldDto(row);
  });
}

/**
 * Ends the hold, once: each item's `hold` block from this hold is cleared and a
 * `hold_released` movement (data.resolution) appended. scrap and return also set
 * the item's qualityStatus to `rejected`, so it stays on_hold until its disposal or
 * return is decided elsewhere; release leaves qualityStatus as it was.
 */
export async function resolveQualityHold(ctx: RequestCtx, id: string, input: z.output<typeof ResolveQualityHold>): Promise<QualityHoldDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadOr404(writer(ctx), qualityHolds, id, "quality hold");
    assertVersion("quality hold", row, input.expectedVersion);
    assertHoldActive(row.status);
    const note = input.note || null;
    const next = await saveVersion(
      writer(ctx),
      qualityHolds,
      row,
      { status: "resolved", resolution: input.resolution, resolutionNote: note, resolvedAt: ctx.nowIso, resolvedBy: ctx.actorId },
      ctx.nowIso,
    );
    for (const itemId of row.itemIds) {
      await clearBlock(ctx, itemId, "hold", row.id);
      if (input.resolution !== "release") await changeItem(ctx, itemId, { qualityStatus: "rejected" });
      const item = await findItem(ctx, itemId);
      await recordMovement(ctx, {
        itemId,
        kind: "hold_released",
        bizLocationId: item?.locationId ?? null,
        reason: note,
        data: { holdId: row.id, resolution: input.resolution },
      });
    }
    await appendEvent(ctx, hubRecordEvents, id, "resolved", note, { resolution: input.resolution }, { recordType: "hold" });
    return toQualityHoldDto(next);
  });
}
