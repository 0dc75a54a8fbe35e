import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { CheckoutDetail } from "../custody.schemas.ts";
import { getCheckout as get } from "../custody.service.ts";

export const getCheckout = defineRoute({
  family: "assets",
  method: "get",
  // Overdue flags, reservation windows, grant and draft expiry move with the clock.
  freshness: "clock",
  path: "/checkouts/{id}",
  operationId: "getCheckout",
  summary: "Read a checkout or reservation with its history",
  description: "`events` lists reservation, checkout, acknowledgement, extension, transfer, cancellation and return, newest first.",
  tags: ["Custody"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The checkout", schema: CheckoutDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
