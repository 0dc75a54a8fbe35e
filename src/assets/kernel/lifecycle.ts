// Contract §9: the asset lifecycle transition table, and availability derived from
// lifecycle, quality status and the item's blocks (kernel/blocks.ts).
import { AppError } from "../../platform/errors/app-error.ts";
import type { items, itemBlocks } from "./kernel.tables.ts";

export type Lifecycle = (typeof items.$inferSelect)["lifecycle"];
export type Availability = (typeof items.$inferSelect)["availability"];
export type BlockKind = (typeof itemBlocks.$inferSelect)["kind"];

const LIFECYCLE_MOVES: Record<Lifecycle, Lifecycle[]> = {
  planned: ["active"],
  active: ["in_maintenance", "retired", "consumed"],
  in_maintenance: ["active"],
  retired: ["disposed"],
  disposed: [],
  consumed: [],
};

export function mayMoveLifecycle(from: Lifecycle, to: Lifecycle): boolean {
  return LIFECYCLE_MOVES[from].includes(to);
}

export function assertLifecycleMove(from: Lifecycle, to: Lifecycle): void {
  if (!mayMoveLifecycle(from, to)) throw new AppError("state_conflict", `an item cannot go from ${from} to ${to}`);
}

/** Availability from its inputs, most restrictive first (`packed` changes none). */
export function deriveAvailability(input: { lifecycle: Lifecycle; qualityStatus: string; blocks: Iterable<BlockKind> }): Availability {
  const blocks = new Set(input.blocks);
  if (input.lifecycle === "in_maintenance" || blocks.has("maintenance")) return "in_maintenance";
  if (input.qualityStatus !== "released" || blocks.has("hold")) return "on_hold";
  if (blocks.has("in_transit")) return "in_transit";
  if (blocks.has("checked_out")) return "checked_out";
  if (blocks.has("reserved")) return "reserved";
  return "available";
}
