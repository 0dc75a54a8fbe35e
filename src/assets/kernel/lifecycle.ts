// Contract §9: the asset lifecycle transition table, and availability derived from
// lifecycle, quality status and the item's blocks (kernel/blocks.ts). The value
// lists live here, once: the items table's enums, the wire schemas, the register
// filters, the summary's counts and saved-view validation all follow from them.
import { AppError } from "../../platform/errors/app-error.ts";

export const LIFECYCLES = ["planned", "active", "in_maintenance", "retired", "disposed", "consumed"] as const;
export const AVAILABILITIES = ["available", "reserved", "checked_out", "in_transit", "in_maintenance", "on_hold", "unavailable"] as const;
export const BLOCK_KINDS = ["reserved", "checked_out", "in_transit", "maintenance", "hold", "packed"] as const;

export type Lifecycle = (typeof LIFECYCLES)[number];
export type Availability = (typeof AVAILABILITIES)[number];
export type BlockKind = (typeof BLOCK_KINDS)[number];

const LIFECYCLE_MOVES: Record<Lifecycle, Lifecycle[]> = {
  planned: ["active"],
  active: ["in_maintenance", "retired", "consumed"],
  in_maintenance: ["active"],
  retired: ["disposed"],
  disposed: [],
  consumed: [],
};

/** Lifecycles in which an item cannot be used whatever its custody: its availability is `unavailable`. */
export const OUT_OF_USE: ReadonlySet<Lifecycle> = new Set<Lifecycle>(["planned", "retired", "disposed", "consumed"]);

export function mayMoveLifecycle(from: Lifecycle, to: Lifecycle): boolean {
  return LIFECYCLE_MOVES[from].includes(to);
}

export function assertLifecycleMove(from: Lifecycle, to: Lifecycle): void {
  if (!mayMoveLifecycle(from, to)) throw new AppError("state_conflict", `an item cannot go from ${from} to ${to}`);
}

/**
 * Availability from its inputs, most restrictive first (`packed` changes none):
 * `unavailable` for a lifecycle out of use (nothing can be done with such an item,
 * so it outranks every block); then in_maintenance (lifecycle or a work order's
 * block), on_hold (quality or a hold), in_transit, checked_out, reserved, available.
 */
export function deriveAvailability(input: { lifecycle: Lifecycle; qualityStatus: string; blocks: Iterable<BlockKind> }): Availability {
  if (OUT_OF_USE.has(input.lifecycle)) return "unavailable";
  const blocks = new Set(input.blocks);
  if (input.lifecycle === "in_maintenance" || blocks.has("maintenance")) return "in_maintenance";
  if (input.qualityStatus !== "released" || blocks.has("hold")) return "on_hold";
  if (blocks.has("in_transit")) return "in_transit";
  if (blocks.has("checked_out")) return "checked_out";
  if (blocks.has("reserved")) return "reserved";
  return "available";
}
