// The wire shape of a movement and of a holder, shared by every domain that shows one.
import { z } from "@hono/zod-openapi";
import { freeText } from "../../platform/http/common-schemas.ts";

/** Every step an item's story records (kernel/movements.ts says which publish an event). */
export const MOVEMENT_KINDS = [
  "registered",
  "activated",
  "tagged",
  "moved",
  "consumed",
  "reserved",
  "reservation_cancelled",
  "checked_out",
  "acknowledged",
  "extended",
  "transferred",
  "returned",
  "corrected",
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const Holder = z
  .strictObject({ kind: z.enum(["user", "party", "location"]), id: freeText(255) })
  .openapi("Holder", { description: "Who holds an item: a member (user id), a party or a location." });

export const Movement = z
  .object({
    id: z.string(),
    itemId: z.string(),
    kind: z.enum(MOVEMENT_KINDS).openapi({
      description:
        "The step. Only registered, moved, consumed, checked_out, transferred, returned and corrected publish a domain event " +
        "(asset.created, asset.moved, asset.consumed, custody.checked_out, custody.transferred, custody.returned, movement.corrected); " +
        "activated, tagged, reserved, reservation_cancelled, acknowledged and extended are chronology only.",
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
      "One immutable step of an item's story, EPCIS-shaped. Physical events (registered, moved, consumed, checked_out, " +
      "transferred, returned) and every correction (whatever it corrects) each write one outbox event (contract §10); the other steps " +
      "of the story (activated, tagged, reserved, reservation_cancelled, acknowledged, extended) write none; they move nothing, and their " +
      "business location is where the item was.",
  });
