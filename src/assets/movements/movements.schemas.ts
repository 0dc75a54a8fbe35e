import { z } from "@hono/zod-openapi";
import { Id, Instant, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { Holder, Movement, MOVEMENT_KINDS } from "../kernel/index.ts";

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
