import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { TransferCheckout, Checkout } from "../custody.schemas.ts";
import { transferCheckout as transfer } from "../custody.service.ts";

export const transferCheckout = defineRoute({
  family: "assets",
  method: "post",
  path: "/checkouts/{id}/transfer",
  operationId: "transferCheckout",
  summary: "Hand a checked-out item to another holder",
  description:
    "Writes a `transferred` movement (holder = the new holder, `data.fromHolder` the previous one) and resets the acknowledgement. The same holder is 409 state_conflict; with the active custody policy's `acknowledgementRequired`, a user holder who has not acknowledged is 409 policy_violation.",
  tags: ["Custody"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: TransferCheckout,
  file: import.meta.path,
  responses: { 200: { description: "The checkout with its new holder", schema: Checkout } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await transfer(ctx, params.id, body) }),
});
