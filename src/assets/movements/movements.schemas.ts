import { z } from "@hono/zod-openapi";
import { MOVEMENT_KINDS } from "./movements.service.ts";

export const Holder = z
  .strictObject({ kind: z.enum(["user", "party", "location"]), id: z.string().min(1).max(255) })
  .openapi("Holder", { description: "Who holds an item: a member (user id), a party or a location." });

export const Movement = z
  .object({
    id: z.string(),
    itemId: z.string(),
    kind: z.enum(MOVEMENT_KINDS),
    eventTime: z.string().openapi({ description: "When it happened (EPCIS eventTime)" }),
    recordedAt: z.string().openapi({ description: "When the service recorded it (EPCIS recordTime)" }),
    actorId: z.string().openapi({ description: "The signed-in user who recorded it" }),
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
  .openapi("Movement");
