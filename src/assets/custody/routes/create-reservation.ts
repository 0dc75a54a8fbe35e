import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateReservation, Checkout } from "../custody.schemas.ts";
import { createReservation as create } from "../custody.service.ts";

export const createReservation = defineRoute({
  family: "assets",
  method: "post",
  path: "/reservations",
  operationId: "createReservation",
  summary: "Reserve an item for a window",
  description: [
    "A reservation is a checkout record in state `reserved`, readable at `/checkouts/{id}`.",
    "The window [startsAt, endsAt) is a future one: startsAt no more than 5 minutes in the past (clock skew), endsAt after startsAt; it may not overlap another open reservation of the item,",
    "nor the active checkout's [checkedOutAt, max(dueAt, now)) (409 state_conflict). Planned, active and in-maintenance items can be reserved.",
    "Writes a `reserved` movement (no domain event).",
  ].join(" "),
  tags: ["Custody"],
  auth: "session",
  capability: "ams_operate",
  body: CreateReservation,
  file: import.meta.path,
  responses: { 201: { description: "The reservation", schema: Checkout, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const reservation = await create(ctx, body);
    return { status: 201, body: reservation, headers: { Location: `/api/assets/checkouts/${reservation.id}?partnerId=${query.partnerId}` } };
  },
});
