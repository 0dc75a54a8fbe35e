// lifecycle_disposition: retire an active item, or dispose of an active or retired one
// (an active item passes through retired in the same application).
import { z } from "@hono/zod-openapi";
import { invalid } from "../../../platform/errors/app-error.ts";
import { Id } from "../../../platform/http/common-schemas.ts";
import { Money } from "../../../platform/money/money.ts";
import { requireItem } from "../../kernel/index.ts";
import { defineOperation, OP } from "./operation.ts";
import { applyDisposal, assertDisposable, DISPOSAL_ACTIONS, DISPOSAL_METHODS } from "./disposal.ts";

export const LifecycleDispositionOperation = z
  .strictObject({
    itemId: Id,
    action: z.enum(DISPOSAL_ACTIONS),
    method: z.enum(DISPOSAL_METHODS).optional().openapi({ description: "How the item leaves (dispose only)" }),
    proceeds: Money.optional().openapi({ description: "What the disposal brought in (dispose only)" }),
  })
  .openapi("LifecycleDispositionOperation");

export const lifecycleDisposition = defineOperation({
  type: "lifecycle_disposition",
  summary: "retire an active item, or dispose of an active or retired one (with method and proceeds)",
  schema: LifecycleDispositionOperation,
  proposeCapability: "ams_operate",
  decideCapability: "ams_review",
  async validate(ctx, op) {
    // Rules between fields live here, not in the schema: the published document cannot state them.
    if (op.action !== "dispose") {
      if (op.method !== undefined) throw invalid(`${OP}/method`, "only applies to action dispose");
      if (op.proceeds !== undefined) throw invalid(`${OP}/proceeds`, "only applies to action dispose");
    }
    const item = await requireItem(ctx, op.itemId, `${OP}/itemId`);
    await assertDisposable(ctx, item, op.action);
  },
  async apply(ctx, op, application) {
    const item = await applyDisposal(ctx, op.itemId, op.action, { caseId: application.caseId, reason: application.reason, method: op.method, proceeds: op.proceeds });
    return [{ recordType: "item", recordId: item.id, version: item.version }];
  },
});
