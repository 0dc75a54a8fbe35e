import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CancelReservation, Checkout } from "../custody.schemas.ts";
import { cancelReservation as cancel } from "../custody.service.ts";

export const cancelReservation = defineRoute({
  family: "assets",
  method: "post",
  path: "/reservations/{id}/cancel",
  operationId: "cancelReservation",
  summary: "Release a reservation",
  description: "Beyond the spec: the only way to release a reservation. Only a `reserved` record can be cancelled (else 409 state_conflict). Writes a `reservation_cancelled` movement (no domain event).",
  tags: ["Custody"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CancelReservation,
  file: import.meta.path,
  responses: { 200: { description: "The cancelled reservation", schema: Checkout } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await cancel(ctx, params.id, body) }),
});
