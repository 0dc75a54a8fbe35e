import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ReturnCheckout, Checkout } from "../custody.schemas.ts";
import { returnCheckout as giveBack } from "../custody.service.ts";

export const returnCheckout = defineRoute({
  family: "assets",
  method: "post",
  path: "/checkouts/{id}/return",
  operationId: "returnCheckout",
  summary: "Return a checked-out item",
  description: [
    "`condition` becomes the item's condition. With `locationId` the item is put there (out of any container; its contents follow, one `moved` movement each),",
    "else it stays where it is recorded; `returnLocationId` is where it ended up. Writes a `returned` movement; `note` is its reason.",
  ].join(" "),
  tags: ["Custody"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ReturnCheckout,
  file: import.meta.path,
  responses: { 200: { description: "The returned checkout", schema: Checkout } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await giveBack(ctx, params.id, body) }),
});
