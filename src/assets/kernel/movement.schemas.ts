// The wire shape of a movement and of a holder, shared by every domain that shows one,
// and which kinds publish a contract §10 event.
import { z } from "@hono/zod-openapi";
import { freeText } from "../../platform/http/common-schemas.ts";
import type { EventKind } from "../../platform/outbox/outbox.ts";

/** Every step an item's story records, by the domain that records it. */
export const MOVEMENT_KINDS = [
  // register and items
  "registered",
  "activated",
  "tagged",
  "moved",
  "consumed",
  // custody
  "reserved",
  "reservation_cancelled",
  "checked_out",
  "acknowledged",
  "extended",
  "transferred",
  "returned",
  // transit: packing is an EPCIS aggregation (parent = the container), the rest object events
  "packed",
  "unpacked",
  "dispatched",
  "handed_off",
  "received",
  "transit_exception",
  "returned_to_sender",
  // maintenance
  "maintenance_started",
  "maintenance_completed",
  // hub quality holds
  "held",
  "hold_released",
  // corrections of any of them
  "corrected",
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/**
 * The contract §10 event each kind publishes. Partial on purpose: §10 names events
 * for physical custody, location and transit changes only; the other steps are
 * chronology rows without one.
 */
export const EVENT_OF: Partial<Record<MovementKind, EventKind>> = {
  registered: "asset.created",
  moved: "asset.moved",
  consumed: "asset.consumed",
  checked_out: "custody.checked_out",
  transferred: "custody.transferred",
  returned: "custody.returned",
  packed: "container.packed",
  unpacked: "container.unpacked",
  dispatched: "shipment.dispatched",
  handed_off: "shipment.handed_off",
  received: "shipment.received",
  transit_exception: "shipment.exception",
  corrected: "movement.corrected",
};

const publishing = MOVEMENT_KINDS.filter((k) => EVENT_OF[k]);
const chronologyOnly = MOVEMENT_KINDS.filter((k) => !EVENT_OF[k]);

export const Holder = z
  .strictObject({ kind: z.enum(["user", "party", "location"]), id: freeText(255) })
  .openapi("Holder", { description: "Who holds an item: a member (user id), a party or a location." });

export const Movement = z
  .object({
    id: z.string(),
    itemId: z.string(),
    kind: z.enum(MOVEMENT_KINDS).openapi({
      description:
        `The step. Only ${publishing.join(", ")} publish a domain event ` +
        `(${publishing.map((k) => EVENT_OF[k]).join(", ")}, in that order); ${chronologyOnly.join(", ")} are chronology only.`,
    }),
    eventTime: z.string().openapi({ description: "When it happened (EPCIS eventTime)" }),
    recordedAt: z.string().openapi({ description: "When the service recorded it (EPCIS recordTime)" }),
    actorId: z.string().openapi({ description: "The signed-in user who recorded it (`system` for the service's own scheduled steps, such as expiring a reservation)" }),
    readPointId: z.string().nullable(),
    bizLocationId: z.string().nullable(),
    fromLocationId: z.string().nullable(),
    toLocationId: z.string().nullable(),
    fromContainerId: z.string().nullable(),
    toContainerId: z.string().nullable(),
    holder: z.object({ kind: z.string(), id: z.string() }).nullable(),
    quantity: z.number().int().nullable(),
    checkoutId: z.string().nullable(),
    reason: z.string().nullable(),
    corrects: z.string().nullable().openapi({ description: "The movement this one corrects" }),
    correctedBy: z.string().nullable().openapi({ description: "The correction appended for this movement, if any" }),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("Movement", {
    description:
      "One immutable step of an item's story, EPCIS-shaped. The kinds that publish a domain event (see `kind`) each write exactly one " +
      "outbox event (contract §10) in the same transaction, and every correction writes one whatever it corrects; the other steps write " +
      "none. Steps that move nothing carry no toLocationId, and their business location is where the item was.",
  });
