// Retiring and disposing of items (contract §9: active → retired → disposed), shared
// by lifecycle_disposition, bulk_change and the write-off of overdue_custody_escalation.
// Disposing of an active item passes through `retired` in the same application: one
// new item version, two item-history entries (retired, then disposed).
import { AppError } from "../../../platform/errors/app-error.ts";
import { db } from "../../../platform/db/transactions.ts";
import type { TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import type { ItemRow } from "../../kernel/index.ts";
import { changeItem, loadItem, recordItemHistory } from "../../kernel/index.ts";
import { assertLifecycleMove, type Lifecycle } from "../../kernel/index.ts";
import { hasBlock, immobility } from "../../kernel/index.ts";
import { custodyOfItemQuery } from "../../custody/index.ts";

export const DISPOSAL_ACTIONS = ["retire", "dispose"] as const;
export type DisposalAction = (typeof DISPOSAL_ACTIONS)[number];
export const DISPOSAL_METHODS = ["sale", "scrap", "donation", "return_to_lessor", "other"] as const;

/** The lifecycle steps the action takes from `from`, or null when it may not start there. */
function stepsFor(action: DisposalAction, from: Lifecycle): Lifecycle[] | null {
  if (action === "retire") return from === "active" ? ["retired"] : null;
  if (from === "active") return ["retired", "disposed"];
  if (from === "retired") return ["disposed"];
  return null;
}

/**
 * 409 unless the item may be retired or disposed of now: its lifecycle allows the
 * action, and nothing holds it (a checkout or a reservation not yet ended, a shipment,
 * a shipment container, an open work order). `exceptCheckoutId`: a checkout the same
 * application ends first (a write-off).
 */
export async function assertDisposable(ctx: TenantCtx, item: ItemRow, action: DisposalAction, opts: { exceptCheckoutId?: string } = {}): Promise<void> {
  if (!stepsFor(action, item.lifecycle)) {
    throw new AppError("state_conflict", `cannot ${action} item ${item.id}: it is ${item.lifecycle}`, { extras: { itemId: item.id, lifecycle: item.lifecycle } });
  }
  const custody = (await custodyOfItemQuery(db(ctx), item.id, ctx.nowIso, 2)).filter((c) => c.id !== opts.exceptCheckoutId)[0];
  if (custody) {
    const what = custody.state === "checked_out" ? "checked out" : `reserved from ${custody.startsAt}`;
    throw new AppError("state_conflict", `item ${item.id} is ${what} (checkout ${custody.id})`, { extras: { itemId: item.id, checkoutId: custody.id } });
  }
  const blocked = await immobility(ctx, item);
  if (blocked && !(blocked === "checked out" && opts.exceptCheckoutId)) {
    throw new AppError("state_conflict", `item ${item.id} is ${blocked}`, { extras: { itemId: item.id } });
  }
  if (await hasBlock(ctx, item.id, "maintenance")) {
    throw new AppError("state_conflict", `item ${item.id} is held by an open work order`, { extras: { itemId: item.id } });
  }
}

export interface DisposalFacts {
  caseId: string;
  reason: string;
  method?: string;
  proceeds?: { amount: string; currency: string };
}

/** Moves the item through the action's lifecycle steps, one item-history entry each; returns the item as stored. */
export async function applyDisposal(ctx: TenantCtx, itemId: string, action: DisposalAction, facts: DisposalFacts): Promise<ItemRow> {
  const item = await loadItem(ctx, itemId);
  const steps = stepsFor(action, item.lifecycle);
  if (!steps) throw new AppError("state_conflict", `cannot ${action} item ${item.id}: it is ${item.lifecycle}`);
  let from = item.lifecycle;
  for (const to of steps) {
    assertLifecycleMove(from, to);
    await recordItemHistory(
      ctx,
      itemId,
      to,
      {
        from,
        to,
        workflowCaseId: facts.caseId,
        ...(to === "disposed" && facts.method ? { method: facts.method } : {}),
        ...(to === "disposed" && facts.proceeds ? { proceeds: facts.proceeds } : {}),
      },
      facts.reason,
    );
    from = to;
  }
  return changeItem(ctx, itemId, { lifecycle: from });
}
