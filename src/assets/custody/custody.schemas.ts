import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Instant, RecordMeta, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { Holder } from "../kernel/index.ts";
import { CONDITIONS } from "../kernel/index.ts";
import { CHECKOUT_EVENT_KINDS, CHECKOUT_STATES, HOLDER_KINDS } from "./custody.states.ts";

export { Holder };

const Note = freeText(2000, { min: 0, multiline: true });
const Reason = freeText(1000, { min: 0, multiline: true });
const OptionalVersion = ExpectedVersion.optional();

export const Checkout = z
  .object({
    ...RecordMeta,
    itemId: z.string(),
    state: z.enum(CHECKOUT_STATES),
    holder: Holder,
    startsAt: Timestamp.openapi({ description: "Reservation window start, or when a direct checkout began" }),
    endsAt: Timestamp.nullable().openapi({ description: "Reservation window end (exclusive); null for a direct checkout" }),
    dueAt: Timestamp.nullable(),
    checkedOutAt: Timestamp.nullable(),
    returnedAt: Timestamp.nullable(),
    acknowledgedAt: Timestamp.nullable(),
    acknowledgedBy: z.string().nullable(),
    note: z.string().nullable(),
    returnCondition: z.enum(CONDITIONS).nullable(),
    returnLocationId: z.string().nullable(),
    overdue: z.boolean().openapi({ description: "checked_out and dueAt before the server time of the response" }),
    version: z.number().int(),
  })
  .openapi("Checkout");

export const CheckoutEvent = z
  .object({
    id: z.string(),
    kind: z.enum(CHECKOUT_EVENT_KINDS),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("CheckoutEvent");

export const CheckoutDetail = Checkout.extend({
  events: z.array(CheckoutEvent).openapi({ description: "The record's history, newest first" }),
}).openapi("CheckoutDetail");

export const ListCheckoutsQuery = z.strictObject({
  state: csvEnum(CHECKOUT_STATES),
  itemId: Id.optional(),
  holderKind: csvEnum(HOLDER_KINDS),
  holderId: freeText(255).optional(),
  overdue: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ type: "boolean", description: "true: checked_out with dueAt in the past; false: every other record" }),
  ...PageQueryShape,
});
export const CheckoutList = listEnvelope(Checkout, "CheckoutList");

export const CreateCheckout = z
  .strictObject({
    itemId: Id,
    holder: Holder,
    dueAt: Instant.openapi({ description: "Must be in the future" }),
    note: Note.optional(),
    reservationId: Id.optional().openapi({ description: "Starts this reservation: same item and holder; the reservation record becomes the checkout" }),
    expectedVersion: OptionalVersion.openapi({ description: "The reservation's current version (only with reservationId)" }),
  })
  .openapi("CreateCheckout");

export const CreateReservation = z
  .strictObject({
    itemId: Id,
    holder: Holder,
    startsAt: Instant,
    endsAt: Instant.openapi({ description: "Exclusive end; after startsAt and in the future" }),
    note: Note.optional(),
  })
  .openapi("CreateReservation");

export const CancelReservation = z.strictObject({ reason: Reason.optional(), expectedVersion: OptionalVersion }).openapi("CancelReservation");
export const AcknowledgeCheckout = z.strictObject({ expectedVersion: OptionalVersion }).openapi("AcknowledgeCheckout");
export const ExtendCheckout = z
  .strictObject({
    dueAt: Instant.openapi({ description: "The new due time; any time in the future" }),
    reason: freeText(1000, { multiline: true }),
    expectedVersion: OptionalVersion,
  })
  .openapi("ExtendCheckout");
export const TransferCheckout = z
  .strictObject({ holder: Holder, reason: Reason.optional(), expectedVersion: OptionalVersion })
  .openapi("TransferCheckout");
export const ReturnCheckout = z
  .strictObject({
    condition: z.enum(CONDITIONS).optional().openapi({ description: "The item's condition on return; becomes the item's condition" }),
    locationId: Id.optional().openapi({ description: "Where the item is put back; default: it stays where it is recorded" }),
    note: Note.optional(),
    expectedVersion: OptionalVersion,
  })
  .openapi("ReturnCheckout");
