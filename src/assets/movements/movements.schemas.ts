import { z } from "@hono/zod-openapi";
import { Id, Instant, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { MOVEMENT_KINDS } from "./movements.service.ts";

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

// --- GET /movements and POST /movements/{id}/correct ---

export const ListMovementsQuery = z.strictObject({
  itemId: Id.optional(),
  kind: csvEnum(MOVEMENT_KINDS),
  from: Instant.optional().openapi({ description: "Only movements whose eventTime is at or after this instant (inclusive)." }),
  to: Instant.optional().openapi({ description: "Only movements whose eventTime is before this instant (exclusive). Must be after `from` when both are given (400 otherwise)." }),
  ...PageQueryShape,
});
export type ListMovementsQuery = z.output<typeof ListMovementsQuery>;

export const MovementList = listEnvelope(Movement, "MovementList");

export const CorrectMovement = z
  .strictObject({
    reason: freeText(1000, { multiline: true }),
    locationId: Id.optional().openapi({ description: "Where the item actually went (or where the event actually happened)." }),
    eventTime: Instant.optional().openapi({ description: "When it actually happened; not in the future." }),
    holder: Holder.optional().openapi({ description: "Who actually took custody. Recorded, not applied to the checkout." }),
    quantity: z.number().int().min(0).optional().openapi({ description: "The actual quantity. Recorded, not applied to the item." }),
  })
  .openapi("CorrectMovement", { description: "A reason and at least one corrected fact." });
export type CorrectMovement = z.output<typeof CorrectMovement>;
