import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ExtendCheckout, Checkout } from "../custody.schemas.ts";
import { extendCheckout as extend } from "../custody.service.ts";

export const extendCheckout = defineRoute({
  family: "assets",
  method: "post",
  path: "/checkouts/{id}/extend",
  operationId: "extendCheckout",
  summary: "Change a checkout's due time",
  description:
    "The new dueAt may be any future time (400 `/body/dueAt` otherwise); a reservation of the item overlapping [now, dueAt) is 409 state_conflict naming it. The active custody policy may refuse it (409 policy_violation): a dueAt later than the current one and more than `maxCheckoutDays` after the checkout time, or, with `acknowledgementRequired`, a user holder who has not acknowledged. The reason is required and kept in the history. Writes an `extended` movement (`data.fromDueAt`/`toDueAt`; no domain event).",
  tags: ["Custody"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ExtendCheckout,
  file: import.meta.path,
  responses: { 200: { description: "The checkout with its new dueAt", schema: Checkout } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await extend(ctx, params.id, body) }),
});
