import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateCheckout, Checkout } from "../custody.schemas.ts";
import { createCheckout as create } from "../custody.service.ts";

export const createCheckout = defineRoute({
  family: "assets",
  method: "post",
  path: "/checkouts",
  operationId: "createCheckout",
  summary: "Check an item out to a member, a party or a location",
  description: [
    "The item must be active and neither checked out, in transit, on hold nor in maintenance (409 state_conflict).",
    "[now, dueAt) must not overlap an open reservation of the item (409 state_conflict naming it), including the same holder's: start that one with `reservationId`.",
    "With `reservationId` the reservation record itself becomes the checkout (201, same id): it must be for the same item (else 400 `/body/reservationId`),",
    "still reserved and within its window, and `holder` must equal the reservation's holder (else 409 state_conflict); `expectedVersion` is the reservation's.",
    "A dueAt more than the active custody policy's `maxCheckoutDays` from now is 409 policy_violation naming the policy.",
    "Writes a `checked_out` movement.",
  ].join(" "),
  tags: ["Custody"],
  auth: "session",
  capability: "ams_operate",
  body: CreateCheckout,
  file: import.meta.path,
  responses: { 201: { description: "The checkout", schema: Checkout, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const checkout = await create(ctx, body);
    return { status: 201, body: checkout, headers: { Location: `/api/assets/checkouts/${checkout.id}?partnerId=${query.partnerId}` } };
  },
});
