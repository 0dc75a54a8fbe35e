// Contract §9: the asset lifecycle transition table, and availability derived from
// lifecycle, quality status and custody. Commands call refreshAvailability after
// any change to those inputs, in the same transaction.
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../../platform/errors/app-error.ts";
import type { Querier } from "../../platform/http/context.ts";
import { items } from "./items.tables.ts";
import { checkouts } from "../custody/custody.tables.ts";

export type Lifecycle = (typeof items.$inferSelect)["lifecycle"];
export type Availability = (typeof items.$inferSelect)["availability"];

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

/** Availability from its inputs, most restrictive first. */
export function deriveAvailability(input: {
  lifecycle: Lifecycle;
  qualityStatus: string;
  inTransit: boolean;
  checkedOut: boolean;
  reserved: boolean;
}): Availability {
  if (input.lifecycle === "in_maintenance") return "in_maintenance";
  if (input.qualityStatus !== "released") return "on_hold";
  if (input.inTransit) return "in_transit";
  if (input.checkedOut) return "checked_out";
  if (input.reserved) return "reserved";
  return "available";
}

/**
 * Recomputes and stores an item's availability; a change is a change of the item
 * record (version + 1, updatedAt = nowIso). Returns the new value.
 */
export async function refreshAvailability(
  tx: Querier,
  itemId: string,
  nowIso: string,
  opts: { inTransit?: boolean; /** The caller already gave the item its +1 for this request. */ versionBumped?: boolean } = {},
): Promise<Availability> {
  const item = (
    await tx
      .select({ lifecycle: items.lifecycle, qualityStatus: items.qualityStatus, availability: items.availability, version: items.version })
      .from(items)
      .where(eq(items.id, itemId))
  )[0];
  if (!item) throw new AppError("not_found", "item not found");
  const custody = await tx
    .select({ state: checkouts.state, startsAt: checkouts.startsAt, endsAt: checkouts.endsAt })
    .from(checkouts)
    .where(and(eq(checkouts.itemId, itemId), inArray(checkouts.state, ["reserved", "checked_out"])));
  // Availability describes now: a reservation counts once its window has started
  // (the reservations job flips items whose window starts later).
  const reservedNow = (c: { startsAt: string; endsAt: string | null }) => c.startsAt <= nowIso && (c.endsAt === null || c.endsAt > nowIso);
  const availability = deriveAvailability({
    lifecycle: item.lifecycle,
    qualityStatus: item.qualityStatus,
    inTransit: opts.inTransit ?? item.availability === "in_transit",
    checkedOut: custody.some((c) => c.state === "checked_out"),
    reserved: custody.some((c) => c.state === "reserved" && reservedNow(c)),
  });
  if (availability !== item.availability) {
    const version = opts.versionBumped ? item.version : item.version + 1;
    await tx.update(items).set({ availability, updatedAt: nowIso, version }).where(eq(items.id, itemId));
  }
  return availability;
}
