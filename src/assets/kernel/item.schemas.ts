// The wire shape of an item, shared by every route that returns one, and its row type.
import { z } from "@hono/zod-openapi";
import { RecordMeta } from "../../platform/http/common-schemas.ts";
import { MoneyOut } from "../../platform/money/money.ts";
import { items } from "./kernel.tables.ts";
import { AVAILABILITIES, LIFECYCLES } from "./lifecycle.ts";

export type ItemRow = typeof items.$inferSelect;

// The lifecycle and availability lists live with their rules in lifecycle.ts.
export { AVAILABILITIES, LIFECYCLES };
export const CONDITIONS = ["new", "good", "fair", "poor", "broken"] as const;
export const QUALITY_STATUSES = ["released", "quarantined", "on_hold", "rejected"] as const;
export const OWNERSHIPS = ["owned", "external"] as const;
export const TRACKINGS = ["serialised", "quantity"] as const;

export const Item = z
  .object({
    ...RecordMeta,
    name: z.string(),
    ownership: z.enum(OWNERSHIPS),
    ownerPartyId: z.string().nullable(),
    agreementId: z.string().nullable(),
    modelId: z.string().nullable(),
    categoryId: z.string().nullable(),
    tracking: z.enum(TRACKINGS),
    quantity: z.number().int(),
    serialNumber: z.string().nullable(),
    condition: z.enum(CONDITIONS),
    qualityStatus: z.enum(QUALITY_STATUSES),
    // A union, not .nullable(): the OpenAPI generator drops null from a nullable $ref.
    acquisitionCost: z.union([MoneyOut, z.null()]),
    acquiredOn: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    lifecycle: z.enum(LIFECYCLES).openapi({
      description:
        "planned → active (activate); active → in_maintenance when one of its work orders is started, back to active when its last open " +
        "work order (one holding the item) is completed or cancelled; active → retired → disposed; consumables active → consumed. " +
        "Any other move is 409 state_conflict: an in_maintenance item is not checked out, packed, consumed, retired or disposed of.",
    }),
    availability: z.enum(AVAILABILITIES).openapi({
      description:
        "Derived, never set directly (contract §9), most restrictive first: unavailable (lifecycle planned, retired, disposed or consumed: " +
        "the item cannot be used whatever its custody, so this outranks everything below), in_maintenance (lifecycle in_maintenance or an " +
        "open work order holding it), on_hold (quality status other than released, or a quality hold), in_transit, checked_out, reserved " +
        "(a reservation whose window has started and not ended; the reservations job flips an item within a minute of its window starting — " +
        "upcoming reservations are listed in the item detail), else available.",
    }),
    locationId: z.string(),
    containerId: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi("Item");
export type ItemDto = z.infer<typeof Item>;

export function toItemDto(r: ItemRow): ItemDto {
  return {
    id: r.id,
    name: r.name,
    ownership: r.ownership,
    ownerPartyId: r.ownerPartyId,
    agreementId: r.agreementId,
    modelId: r.modelId,
    categoryId: r.categoryId,
    tracking: r.tracking,
    quantity: r.quantity,
    serialNumber: r.serialNumber,
    condition: r.condition,
    qualityStatus: r.qualityStatus,
    acquisitionCost:
      r.acquisitionCostAmount !== null && r.acquisitionCostCurrency !== null
        ? { amount: r.acquisitionCostAmount, currency: r.acquisitionCostCurrency }
        : null,
    acquiredOn: r.acquiredOn,
    attributes: r.attributes,
    lifecycle: r.lifecycle,
    availability: r.availability,
    locationId: r.locationId,
    containerId: r.containerId,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
