// Cancelling stale work: the scheduled logical reminders and the open attempts of
// them (pending, queued SMS jobs, unconfirmed). Relink, unlink, opt-out, revocation,
// a terminal work state and a replaced deadline all end here. Terminal attempts are
// never touched: prior attempts stay immutable.
import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import { db, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { cancelSms } from "./notifications.sms.ts";
import { planningNotificationOutbox, planningReminderDeliveries, type PersonalChannel } from "./notifications.tables.ts";

/** Reasons stale work is cancelled for (stored as safe codes). */
export type CancelReason =
  | "relinked"
  | "unlinked"
  | "opted_out"
  | "revoked"
  | "terminal_work_state"
  | "occurrence_cancelled"
  | "deadline_replaced"
  | "no_longer_eligible"
  | "project_closed";

export const OPEN_ATTEMPT_STATES = ["pending", "queued", "unconfirmed"] as const;

/** Cancels the deliveries matching `where` that are not yet finished, and their open attempts. Returns how many deliveries. Call inside withTx. */
export async function cancelDeliveriesWhere(ctx: TenantCtx, where: SQL, reason: CancelReason): Promise<number> {
  const q = db(ctx);
  const rows = await q
    .select({ id: planningReminderDeliveries.id })
    .from(planningReminderDeliveries)
    .where(
      and(
        where,
        // Scheduled ones, and dispatched ones whose attempt is still open; a reminder already sent stays as it was.
        or(
          eq(planningReminderDeliveries.state, "scheduled"),
          and(
            eq(planningReminderDeliveries.state, "dispatched"),
            inArray(
              planningReminderDeliveries.id,
              q.select({ id: planningNotificationOutbox.deliveryId }).from(planningNotificationOutbox).where(inArray(planningNotificationOutbox.state, [...OPEN_ATTEMPT_STATES])),
            ),
          ),
        ),
      ),
    );
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.id);
  const tx = writer(ctx);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await cancelOpenAttempts(ctx, inArray(planningNotificationOutbox.deliveryId, chunk), reason);
    await tx
      .update(planningReminderDeliveries)
      .set({ state: "cancelled", cancelReason: reason, updatedAt: ctx.nowIso })
      .where(and(inArray(planningReminderDeliveries.id, chunk), inArray(planningReminderDeliveries.state, ["scheduled", "dispatched"])));
  }
  return ids.length;
}

/**
 * Cancels open attempts matching `where`. An SMS attempt's job is cancelled at the
 * gateway first; a job the gateway could no longer stop (already sent) leaves its
 * attempt open to follow the job's real outcome.
 */
async function cancelOpenAttempts(ctx: TenantCtx, where: SQL, reason: CancelReason): Promise<void> {
  const open = await db(ctx)
    .select({ id: planningNotificationOutbox.id, smsJobId: planningNotificationOutbox.smsJobId })
    .from(planningNotificationOutbox)
    .where(and(where, inArray(planningNotificationOutbox.state, [...OPEN_ATTEMPT_STATES])));
  const stopped: string[] = [];
  for (const a of open) {
    if (!a.smsJobId || (await cancelSms(ctx, a.smsJobId, reason)).state === "cancelled") stopped.push(a.id);
  }
  if (stopped.length === 0) return;
  await writer(ctx)
    .update(planningNotificationOutbox)
    .set({ state: "cancelled", disposition: `cancelled_${reason}`, updatedAt: ctx.nowIso, completedAt: ctx.nowIso })
    .where(and(inArray(planningNotificationOutbox.id, stopped), inArray(planningNotificationOutbox.state, [...OPEN_ATTEMPT_STATES])));
}

/** All of one user's unfinished reminder work on one channel of one project. */
export function cancelPersonalWork(ctx: TenantCtx, projectId: string, userId: string, channel: PersonalChannel, reason: CancelReason): Promise<number> {
  return cancelDeliveriesWhere(
    ctx,
    and(eq(planningReminderDeliveries.projectId, projectId), eq(planningReminderDeliveries.recipientUserId, userId), eq(planningReminderDeliveries.channel, channel))!,
    reason,
  );
}
