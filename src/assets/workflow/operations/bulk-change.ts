// bulk_change: 1 to 500 items moved to one location, or retired / disposed of, all or
// nothing: one item that no longer allows it refuses the whole application.
import { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import { Id } from "../../../platform/http/common-schemas.ts";
import { requireItem } from "../../kernel/index.ts";
import { immobility } from "../../kernel/index.ts";
import { requireLocation } from "../../locations/index.ts";
import { moveItem } from "../../items/index.ts";
import { defineOperation, OP, type ReceiptEntry } from "./operation.ts";
import { applyDisposal, assertDisposable, DISPOSAL_ACTIONS, DISPOSAL_METHODS } from "./disposal.ts";

export const BULK_MAX = 500;

const ItemIds = z
  .array(Id)
  .min(1)
  .max(BULK_MAX)
  .openapi({ description: `1 to ${BULK_MAX} items, each listed once (400 at the repeated entry otherwise)` });

export const BulkChangeOperation = z
  .discriminatedUnion("kind", [
    z
      .strictObject({ kind: z.literal("move"), itemIds: ItemIds, toLocationId: Id.openapi({ description: "An active location" }) })
      .openapi("BulkMoveOperation"),
    z
      .strictObject({
        kind: z.literal("lifecycle"),
        itemIds: ItemIds,
        action: z.enum(DISPOSAL_ACTIONS),
        method: z.enum(DISPOSAL_METHODS).optional().openapi({ description: "How the items leave (dispose only)" }),
      })
      .openapi("BulkLifecycleOperation"),
  ])
  .openapi("BulkChangeOperation");

export const bulkChange = defineOperation({
  type: "bulk_change",
  summary: `move 1 to ${BULK_MAX} items to one location, or retire or dispose of them, all or nothing`,
  schema: BulkChangeOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    // Rules between fields and entries live here, not in the schema: the published document cannot state them.
    const seen = new Set<string>();
    op.itemIds.forEach((id, i) => {
      if (seen.has(id)) throw invalid(`${OP}/itemIds/${i}`, "listed twice");
      seen.add(id);
    });
    if (op.kind === "lifecycle" && op.action !== "dispose" && op.method !== undefined) throw invalid(`${OP}/method`, "only applies to action dispose");
    if (op.kind === "move") await requireLocation(ctx, op.toLocationId, `${OP}/toLocationId`);
    for (const [i, itemId] of op.itemIds.entries()) {
      const item = await requireItem(ctx, itemId, `${OP}/itemIds/${i}`);
      if (op.kind === "lifecycle") {
        await assertDisposable(ctx, item, op.action);
        continue;
      }
      const blocked = await immobility(ctx, item);
      if (blocked) throw new AppError("state_conflict", `item ${item.id} is ${blocked} and cannot be moved`, { extras: { itemId: item.id } });
      if (item.locationId === op.toLocationId && item.containerId === null) {
        throw new AppError("state_conflict", `item ${item.id} is already at this location`, { extras: { itemId: item.id } });
      }
    }
  },
  async apply(ctx, op, application) {
    const entries: ReceiptEntry[] = [];
    for (const itemId of op.itemIds) {
      if (op.kind === "move") {
        // The items domain's own move: its rules, its `moved` movement and asset.moved event, contents following.
        const moved = await moveItem(ctx, itemId, { toLocationId: op.toLocationId, reason: application.reason });
        entries.push({ recordType: "item", recordId: itemId, version: moved.version });
      } else {
        const item = await applyDisposal(ctx, itemId, op.action, { caseId: application.caseId, reason: application.reason, method: op.method });
        entries.push({ recordType: "item", recordId: itemId, version: item.version });
      }
    }
    return entries;
  },
});
