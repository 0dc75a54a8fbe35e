// Posting an audit: what each accepted result does to the register. Runs inside
// the post command's transaction, so a result that cannot be applied throws and
// takes every other correction of the post back with it.
import { and, asc, eq } from "drizzle-orm";
import { AppError } from "../../platform/errors/app-error.ts";
import { writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { ItemRow } from "../kernel/index.ts";
import { changeItem, loadItem, recordItemHistory } from "../kernel/index.ts";
import { immobility } from "../kernel/index.ts";
import { moveContents } from "../kernel/index.ts";
import { recordMovement } from "../kernel/index.ts";
import { auditResults } from "./audits.tables.ts";

export interface PostingSummary {
  locationCorrections: number;
  conditionCorrections: number;
  missingConfirmed: number;
}

const CORRECTION_REASON = "audit correction";

function cannotApply(resultId: string, itemId: string, why: string): AppError {
  return new AppError("state_conflict", `result ${resultId} cannot be applied: item ${itemId} ${why}; review it again (reject) or resolve the item first`, {
    extras: { resultId, itemId },
  });
}

/**
 * Applies every accepted result of the audit:
 * - wrong_location and unexpected: the item is put where it was last counted (out of
 *   any container, its own contents following), with a `moved` movement carrying
 *   data.auditId and data.resultId, observed at the count's time and place;
 * - a counted condition other than the item's (wrong_location, unexpected,
 *   condition_change) becomes the item's condition (item history `condition_corrected`);
 * - missing: recorded in the item's history (`audit_missing`); the item stays where it is recorded.
 * An item moved by anyone since it was counted, or one that cannot move now
 * (checked out, in transit, packed, disposed, consumed), is 409 naming the result.
 */
export async function applyAcceptedResults(ctx: TenantCtx, auditId: string): Promise<PostingSummary> {
  const accepted = await writer(ctx)
    .select()
    .from(auditResults)
    .where(and(eq(auditResults.auditId, auditId), eq(auditResults.reviewState, "accepted")))
    .orderBy(asc(auditResults.id));
  const summary: PostingSummary = { locationCorrections: 0, conditionCorrections: 0, missingConfirmed: 0 };
  for (const r of accepted) {
    const item = await loadItem(ctx, r.itemId);
    const data = { auditId, resultId: r.id };
    if (r.kind === "missing") {
      await recordItemHistory(ctx, item.id, "audit_missing", { ...data, locationId: item.locationId }, CORRECTION_REASON);
      summary.missingConfirmed++;
    } else {
      const latest = r.counts[0];
      const to = r.countedLocationId;
      if ((r.kind === "wrong_location" || r.kind === "unexpected") && to !== null && to !== item.locationId) {
        if (item.locationId !== r.recordedLocationId) throw cannotApply(r.id, item.id, "has been moved since it was counted");
        const blocked = await immobility(ctx, item);
        if (blocked) throw cannotApply(r.id, item.id, `is ${blocked}`);
        await changeItem(ctx, item.id, { locationId: to, containerId: null });
        await recordMovement(ctx, {
          itemId: item.id,
          kind: "moved",
          eventTime: latest?.countedAt,
          readPointId: to,
          bizLocationId: to,
          fromLocationId: item.locationId,
          toLocationId: to,
          fromContainerId: item.containerId,
          toContainerId: null,
          reason: CORRECTION_REASON,
          data,
        });
        await moveContents(ctx, item.id, to, { reason: CORRECTION_REASON, data });
        summary.locationCorrections++;
      }
      if (r.countedCondition !== null && r.countedCondition !== item.condition) {
        await changeItem(ctx, item.id, { condition: r.countedCondition as ItemRow["condition"] });
        await recordItemHistory(ctx, item.id, "condition_corrected", { ...data, from: item.condition, to: r.countedCondition }, CORRECTION_REASON);
        summary.conditionCorrections++;
      }
    }
    await writer(ctx)
      .update(auditResults)
      .set({ appliedAt: ctx.nowIso, version: r.version + 1, updatedAt: ctx.nowIso })
      .where(eq(auditResults.id, r.id));
  }
  return summary;
}
