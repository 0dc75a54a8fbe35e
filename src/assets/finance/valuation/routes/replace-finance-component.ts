import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { ComponentReplacement, ReplaceComponent } from "../components.schemas.ts";
import { replaceComponent } from "../components.service.ts";

export const replaceFinanceComponent = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/components/{id}/replace",
  operationId: "replaceFinanceComponent",
  summary: "Replace a component of an asset: derecognise the old, capitalise the new",
  description:
    "`id` is a depreciation profile with a `componentName` (409 state_conflict for a whole-asset profile or one already replaced). In one transaction: the old component's carrying amount (its cost less the depreciation posted for it) is derecognised by a `disposal` credit (none when zero), " +
    "the new component's `cost` is capitalised by an `addition` debit, both on `valueDate` in `periodId` (an open period of the book containing it), and a new component profile (same method and convention) starts on the first day of the next month; the old profile depreciates no more (`replacedById`). " +
    "No depreciation of the component may be posted for a month after valueDate's (409); the asset must be operator-owned and not disposed (409); money in the book's currency (400). A derecognition above the asset's carrying amount in the book (Σ debit − credit of its entries, e.g. a component never acquired in the book) is 409 carrying_amount_below_floor. Posted directly by a finance_approve holder, like a disposal completion.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: ReplaceComponent,
  file: import.meta.path,
  responses: { 200: { description: "The replacement", schema: ComponentReplacement } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await replaceComponent(ctx, params.id, body) }),
});
