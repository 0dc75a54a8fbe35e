// Fan-out, the notification outbox and delivery history.
//
// - Fan-out derives, from the canonical email schedule, one logical reminder
//   (planning_reminder_deliveries) per recipient and channel: email for every
//   recipient, and messenger_a_dm, messenger_b_dm, sms only for a current `ready`
//   binding with the explicit project preference. The logical key carries the
//   binding's identity version, so a relinked identity starts fresh rows; a
//   reminder relative to a recurring meeting has one per occurrence (its
//   occurrence joins the key), and a cancelled occurrence cancels its rows.
// - A due logical reminder gets attempt 1 in the outbox; the drain sends pending
//   attempts (email over SMTP, messengers over their bot APIs, SMS by enqueueing at
//   the gateway) and follows queued SMS jobs to their end.
// - Retry makes a new attempt of the same logical reminder; reconcile re-reads an
//   open attempt's real outcome. Neither ever makes another logical reminder.
import { and, asc, count, desc, eq, inArray, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { FilterSet, paginate } from "../../platform/paging/paging.ts";
import { projectRoleOf, requireProjectAccess, type ScopeCtx } from "../projects/index.ts";
import { recordAudit } from "../audit/index.ts";
import { enqueueSms, smsJobState } from "./notifications.sms.ts";
import { OPEN_ATTEMPT_STATES, cancelDeliveriesWhere, type CancelReason } from "./notifications.work.ts";
import { discordSend, sendEmail, telegramSend, type SendOutcome } from "./notifications.providers.ts";
import { maskEmail, openLocator } from "./notifications.vault.ts";
import { locatorKindOf, memberEmail, revokeBindingOf, type BindingRow } from "./channels.service.ts";
import { readReminderSchedule, reminderContent, type ReminderSend, type ScheduledReminder } from "./reminder-schedule.ts";
import {
  planningChannelBindings,
  planningNotificationOutbox,
  planningReminderDeliveries,
  type OptionalChannel,
  type OutboxState,
  type PersonalChannel,
} from "./notifications.tables.ts";
import type { DeliveryHistoryQuery } from "./notifications.schemas.ts";

type OutboxRow = typeof planningNotificationOutbox.$inferSelect;
type DeliveryRow = typeof planningReminderDeliveries.$inferSelect;

/** Reminders are derived from this long before their time… */
export const FANOUT_HORIZON_MS = 7 * 24 * 3600_000;
/** …and still sent this late (a reminder created just after its time, a job that was down). */
export const LATE_GRACE_MS = 3600_000;
/** Attempts per logical reminder (the first and its retries). */
export const MAX_ATTEMPTS = 5;
const BATCH = 200;

export function toAttemptDto(r: OutboxRow) {
  return {
    id: r.id,
    projectId: r.projectId,
    deliveryId: r.deliveryId,
    reminderId: r.reminderId,
    recipientUserId: r.recipientUserId,
    channel: r.channel,
    attemptNo: r.attemptNo,
    state: r.state,
    disposition: r.disposition,
    destination: r.destinationMask,
    dueAt: r.dueAt,
    retryOf: r.retryOf,
    recordedAt: r.recordedAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt,
  };
}

const logicalKey = (reminderId: string, send: ReminderSend, userId: string, channel: PersonalChannel, identityVersion: number) =>
  `${reminderId}|${send.dueAt}|${userId}|${channel}|v${identityVersion}${send.occurrenceAt === null ? "" : `|${send.occurrenceAt}`}`;

/** The sends of a reminder a pass derives rows for: due after `from`, up to `until`. */
const sendsIn = (r: ScheduledReminder, window: FanOutWindow) => r.sends.filter((s) => s.dueAt > window.from && s.dueAt <= window.until);

// ---------------------------------------------------------------- fan-out

export interface FanOutCounts {
  derived: number;
  revived: number;
  cancelled: number;
}

/** One pass over every project's schedule: derive missing rows, cancel stale ones. One transaction per reminder. */
export async function fanOutReminders(ctx: TenantCtx): Promise<FanOutCounts> {
  const counts: FanOutCounts = { derived: 0, revived: 0, cancelled: 0 };
  const window: FanOutWindow = {
    from: new Date(ctx.now.getTime() - LATE_GRACE_MS).toISOString(),
    until: new Date(ctx.now.getTime() + FANOUT_HORIZON_MS).toISOString(),
  };
  const schedule = await readReminderSchedule(ctx, window.until);
  // Only reminders in the window, or with open rows to re-check, cost a transaction.
  const { withOpenRows, withOpenAttempts } = await remindersWithOpenWork(ctx);
  for (const r of schedule) {
    const inWindow = !r.projectClosed && !r.terminal && sendsIn(r, window).length > 0;
    if (!inWindow && !withOpenRows.has(r.reminderId) && !((r.projectClosed || r.terminal) && withOpenAttempts.has(r.reminderId))) continue;
    await withTx(ctx, (ctx) => fanOutReminder(ctx, r, window, counts));
  }
  return counts;
}

/**
 * The reminders job's probe (reads only). Now when an attempt is open (to send, or an SMS
 * job to follow), a delivery is scheduled (the fan-out re-checks it every pass and
 * dispatches it when due) or a reminder has a send in the fan-out's window; otherwise,
 * while any reminder of an open project is not terminal, the next pass (sends enter the
 * window by the clock, and a series is only expanded up to the window); null when there is
 * no such reminder and no open work.
 */
export async function remindersDueAt(ctx: TenantCtx): Promise<string | null> {
  const q = db(ctx);
  const open = await q.select({ id: planningNotificationOutbox.id }).from(planningNotificationOutbox).where(inArray(planningNotificationOutbox.state, [...OPEN_ATTEMPT_STATES])).limit(1);
  if (open.length > 0) return ctx.nowIso;
  const scheduled = await q.select({ id: planningReminderDeliveries.id }).from(planningReminderDeliveries).where(eq(planningReminderDeliveries.state, "scheduled")).limit(1);
  if (scheduled.length > 0) return ctx.nowIso;
  const window: FanOutWindow = {
    from: new Date(ctx.now.getTime() - LATE_GRACE_MS).toISOString(),
    until: new Date(ctx.now.getTime() + FANOUT_HORIZON_MS).toISOString(),
  };
  const active = (await readReminderSchedule(ctx, window.until)).filter((r) => !r.projectClosed && !r.terminal);
  if (active.some((r) => sendsIn(r, window).length > 0)) return ctx.nowIso;
  return active.length > 0 ? new Date(ctx.now.getTime() + 1).toISOString() : null;
}

/** Send times a pass derives reminders for: after `from` (LATE_GRACE_MS ago), up to `until` (FANOUT_HORIZON_MS ahead). */
interface FanOutWindow {
  from: string;
  until: string;
}

type DesiredDelivery = { userId: string; channel: PersonalChannel; identityVersion: number; send: ReminderSend };

/** Reminders with scheduled rows, and reminders with open attempts (a closed project or a terminal record cancels them). */
async function remindersWithOpenWork(ctx: TenantCtx): Promise<{ withOpenRows: Set<string>; withOpenAttempts: Set<string> }> {
  const withOpenRows = new Set(
    (
      await db(ctx)
        .selectDistinct({ id: planningReminderDeliveries.reminderId })
        .from(planningReminderDeliveries)
        .where(eq(planningReminderDeliveries.state, "scheduled"))
    ).map((x) => x.id),
  );
  const withOpenAttempts = new Set(
    (
      await db(ctx)
        .selectDistinct({ id: planningNotificationOutbox.reminderId })
        .from(planningNotificationOutbox)
        .where(inArray(planningNotificationOutbox.state, [...OPEN_ATTEMPT_STATES]))
    ).map((x) => x.id),
  );
  return { withOpenRows, withOpenAttempts };
}

/** One reminder, in its own transaction: its open work cancelled when it is over, else its rows brought in line with the schedule. */
async function fanOutReminder(ctx: TenantCtx, r: ScheduledReminder, window: FanOutWindow, counts: FanOutCounts): Promise<void> {
  const openOf = eq(planningReminderDeliveries.reminderId, r.reminderId);
  if (r.projectClosed) {
    counts.cancelled += await cancelDeliveriesWhere(ctx, openOf, "project_closed");
    return;
  }
  if (r.terminal) {
    counts.cancelled += await cancelDeliveriesWhere(ctx, openOf, "terminal_work_state");
    return;
  }
  const existing = await db(ctx).select().from(planningReminderDeliveries).where(eq(planningReminderDeliveries.reminderId, r.reminderId));
  const desired = await desiredDeliveries(ctx, r, window);
  // Stale: scheduled rows this pass no longer derives (a cancelled occurrence, a replaced deadline, a lost binding or preference, a recipient who left).
  for (const row of existing) {
    if (row.state !== "scheduled" || desired.has(row.logicalKey)) continue;
    counts.cancelled += await cancelDeliveriesWhere(ctx, eq(planningReminderDeliveries.id, row.id), staleReason(r, row));
  }
  const byKey = new Map(existing.map((row) => [row.logicalKey, row]));
  for (const [key, d] of desired) {
    const row = byKey.get(key);
    if (row) {
      // The cause of a cancellation went away before the time came (a deadline moved back, a preference turned on again).
      if (row.state === "cancelled" && row.dueAt > ctx.nowIso) {
        await writer(ctx).update(planningReminderDeliveries).set({ state: "scheduled", cancelReason: null, updatedAt: ctx.nowIso }).where(eq(planningReminderDeliveries.id, row.id));
        counts.revived++;
      }
      continue;
    }
    await insertDelivery(ctx, r, key, d);
    counts.derived++;
  }
}

/** Why a scheduled row the schedule no longer derives is stale: its occurrence was called off, its time moved, or the time stands and the recipient or channel no longer qualifies. */
function staleReason(r: ScheduledReminder, row: DeliveryRow): CancelReason {
  if (row.occurrenceAt !== null && r.cancelledOccurrences.has(row.occurrenceAt)) return "occurrence_cancelled";
  return r.sends.some((s) => s.occurrenceAt === row.occurrenceAt && s.dueAt === row.dueAt) ? "no_longer_eligible" : "deadline_replaced";
}

/**
 * The deliveries a reminder should have for its sends in the window, by logical
 * key: per send (each occurrence of a recurring meeting), email to every
 * recipient, and each ready binding whose owner turned reminders on.
 */
async function desiredDeliveries(ctx: TenantCtx, r: ScheduledReminder, window: FanOutWindow): Promise<Map<string, DesiredDelivery>> {
  const desired = new Map<string, DesiredDelivery>();
  const sends = sendsIn(r, window);
  if (sends.length === 0) return desired;
  const bindings =
    r.recipients.length === 0
      ? []
      : await db(ctx)
          .select()
          .from(planningChannelBindings)
          .where(and(eq(planningChannelBindings.projectId, r.projectId), eq(planningChannelBindings.readiness, "ready"), inArray(planningChannelBindings.userId, r.recipients)));
  for (const send of sends) {
    for (const userId of r.recipients) desired.set(logicalKey(r.reminderId, send, userId, "email", 0), { userId, channel: "email", identityVersion: 0, send });
    for (const b of bindings) {
      if (!b.reminders) continue;
      desired.set(logicalKey(r.reminderId, send, b.userId, b.channel, b.identityVersion), { userId: b.userId, channel: b.channel, identityVersion: b.identityVersion, send });
    }
  }
  return desired;
}

async function insertDelivery(ctx: TenantCtx, r: ScheduledReminder, key: string, d: DesiredDelivery): Promise<void> {
  await writer(ctx)
    .insert(planningReminderDeliveries)
    .values({
      id: ctx.deps.newId(),
      projectId: r.projectId,
      reminderId: r.reminderId,
      recipientUserId: d.userId,
      channel: d.channel,
      identityVersion: d.identityVersion,
      logicalKey: key,
      occurrenceAt: d.send.occurrenceAt,
      dueAt: d.send.dueAt,
      state: "scheduled",
      cancelReason: null,
      createdAt: ctx.nowIso,
      updatedAt: ctx.nowIso,
    });
}

// ---------------------------------------------------------------- outbox

/** Due scheduled reminders get their first attempt (pending). Returns how many. */
export async function dispatchDueReminders(ctx: TenantCtx, batch = BATCH): Promise<number> {
  return withTx(ctx, async (ctx) => {
    const due = await db(ctx)
      .select()
      .from(planningReminderDeliveries)
      .where(and(eq(planningReminderDeliveries.state, "scheduled"), lte(planningReminderDeliveries.dueAt, ctx.nowIso)))
      .orderBy(asc(planningReminderDeliveries.dueAt))
      .limit(batch);
    for (const d of due) {
      await writer(ctx).update(planningReminderDeliveries).set({ state: "dispatched", updatedAt: ctx.nowIso }).where(eq(planningReminderDeliveries.id, d.id));
      await newAttempt(ctx, d, 1, null);
    }
    return due.length;
  });
}

async function newAttempt(ctx: TenantCtx, d: DeliveryRow, attemptNo: number, retryOf: string | null): Promise<OutboxRow> {
  const row: OutboxRow = {
    id: ctx.deps.newId(),
    projectId: d.projectId,
    deliveryId: d.id,
    reminderId: d.reminderId,
    recipientUserId: d.recipientUserId,
    channel: d.channel,
    attemptNo,
    state: "pending",
    disposition: null,
    destinationMask: await destinationMaskOf(ctx, d),
    dueAt: d.dueAt,
    smsJobId: null,
    retryOf,
    recordedAt: ctx.nowIso,
    updatedAt: ctx.nowIso,
    completedAt: null,
  };
  await writer(ctx).insert(planningNotificationOutbox).values(row);
  return row;
}

async function currentBinding(ctx: TenantCtx, d: { projectId: string; recipientUserId: string; channel: PersonalChannel }): Promise<BindingRow | undefined> {
  if (d.channel === "email") return undefined;
  return (
    await db(ctx)
      .select()
      .from(planningChannelBindings)
      .where(and(eq(planningChannelBindings.projectId, d.projectId), eq(planningChannelBindings.userId, d.recipientUserId), eq(planningChannelBindings.channel, d.channel)))
  )[0];
}

async function destinationMaskOf(ctx: TenantCtx, d: DeliveryRow): Promise<string | null> {
  if (d.channel === "email") {
    const address = await memberEmail(ctx, d.recipientUserId);
    return address ? maskEmail(address) : null;
  }
  const b = await currentBinding(ctx, d);
  return b && b.identityVersion === d.identityVersion ? b.locatorMask : null;
}

const TERMINAL: readonly OutboxState[] = ["sent", "delivered", "failed", "cancelled"];

/** Moves an open attempt (only if still in one of `from`), stamping completion when the new state is terminal. */
async function moveAttempt(ctx: TenantCtx, id: string, from: readonly OutboxState[], state: OutboxState, disposition: string | null, patch: Partial<OutboxRow> = {}): Promise<boolean> {
  const res = await writer(ctx)
    .update(planningNotificationOutbox)
    .set({ state, disposition, updatedAt: ctx.nowIso, completedAt: TERMINAL.includes(state) ? ctx.nowIso : null, ...patch })
    .where(and(eq(planningNotificationOutbox.id, id), inArray(planningNotificationOutbox.state, [...from])))
    .returning({ id: planningNotificationOutbox.id });
  return res.length > 0;
}

interface Prepared {
  attempt: OutboxRow;
  /** What to send, resolved; or the terminal outcome known without sending. */
  send?: () => Promise<SendOutcome>;
  sms?: { phone: string; countryCode: string; bindingId: string; identityVersion: number };
  outcome?: { state: OutboxState; disposition: string };
  text: string;
  subject: string;
}

/** Sends every pending attempt (a batch), then follows queued SMS jobs. Returns how many attempts changed. */
export async function drainOutbox(ctx: TenantCtx, batch = BATCH): Promise<number> {
  const pending = await db(ctx).select().from(planningNotificationOutbox).where(eq(planningNotificationOutbox.state, "pending")).orderBy(asc(planningNotificationOutbox.recordedAt)).limit(batch);
  let changed = 0;
  for (const attempt of pending) {
    const p = await prepare(ctx, attempt);
    if (p.outcome) {
      await withTx(ctx, (ctx) => moveAttempt(ctx, attempt.id, ["pending"], p.outcome!.state, p.outcome!.disposition));
      changed++;
      continue;
    }
    if (p.sms) {
      await withTx(ctx, async (ctx) => {
        // Re-checked inside the transaction: an opt-out that committed meanwhile wins.
        const still = (await db(ctx).select({ state: planningNotificationOutbox.state }).from(planningNotificationOutbox).where(eq(planningNotificationOutbox.id, attempt.id)))[0];
        if (still?.state !== "pending") return;
        try {
          const job = await enqueueSms(ctx, {
            projectId: attempt.projectId,
            recipientUserId: attempt.recipientUserId,
            phoneE164: p.sms!.phone,
            countryCode: p.sms!.countryCode,
            text: p.text,
            purpose: "reminder",
            logicalKey: `reminder:${attempt.deliveryId}:${attempt.attemptNo}`,
            // The gateway stamps the binding's current cancellation revision and refuses a job of an identity no longer bound.
            bindingId: p.sms!.bindingId,
            identityVersion: p.sms!.identityVersion,
          });
          const mapped = mapSmsState(job.state, job.code);
          await moveAttempt(ctx, attempt.id, ["pending"], mapped.state, mapped.disposition, { smsJobId: job.jobId });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          await moveAttempt(ctx, attempt.id, ["pending"], "failed", err.code === "policy_violation" ? "policy_blocked" : "provider_failure");
        }
      });
      changed++;
      continue;
    }
    // Network outside the write lock; the result is written only if the attempt is still pending.
    const out = await p.send!();
    await withTx(ctx, async (ctx) => {
      const moved = out.ok
        ? await moveAttempt(ctx, attempt.id, ["pending"], "sent", "sent")
        : await moveAttempt(ctx, attempt.id, ["pending"], "failed", out.code);
      if (moved && !out.ok && out.code === "destination_unavailable" && attempt.channel !== "email") {
        const d = await loadDelivery(ctx, attempt.deliveryId);
        await revokeBindingOf(ctx, attempt.projectId, attempt.recipientUserId, attempt.channel as OptionalChannel, d.identityVersion);
      }
    });
    changed++;
  }
  changed += await followSmsJobs(ctx, batch);
  return changed;
}

async function loadDelivery(ctx: TenantCtx, id: string): Promise<DeliveryRow> {
  return (await db(ctx).select().from(planningReminderDeliveries).where(eq(planningReminderDeliveries.id, id)))[0]!;
}

/** Resolves an attempt's destination now (the binding may have changed since it was derived). */
async function prepare(ctx: TenantCtx, attempt: OutboxRow): Promise<Prepared> {
  const d = await loadDelivery(ctx, attempt.deliveryId);
  const content = await reminderContent(ctx, d.reminderId);
  const subject = `Reminder: ${content?.title ?? "planning reminder"}`;
  const text = [content?.title ?? "Planning reminder", content?.message ?? null, `Due ${d.dueAt}`].filter(Boolean).join("\n");
  const base = { attempt, subject, text };
  if (d.state === "cancelled") return { ...base, outcome: { state: "cancelled", disposition: `cancelled_${d.cancelReason ?? "no_longer_eligible"}` } };
  if (attempt.channel === "email") {
    const address = await memberEmail(ctx, attempt.recipientUserId);
    if (!address) return { ...base, outcome: { state: "failed", disposition: "destination_unavailable" } };
    return { ...base, send: () => sendEmail(ctx.deps, address, subject, text) };
  }
  const b = await currentBinding(ctx, attempt);
  if (!b || b.identityVersion !== d.identityVersion || b.readiness !== "ready" || !b.locatorCipher) {
    return { ...base, outcome: { state: "cancelled", disposition: "cancelled_no_longer_eligible" } };
  }
  const locator = openLocator(ctx, locatorKindOf(b.channel), b.id, b.locatorCipher);
  if (b.channel === "sms") {
    if (b.smsVerification !== "verified") return { ...base, outcome: { state: "failed", disposition: "sms_verification_required" } };
    if (b.smsConsent !== "granted") return { ...base, outcome: { state: "failed", disposition: "sms_consent_required" } };
    return { ...base, sms: { phone: locator, countryCode: b.countryCode!, bindingId: b.id, identityVersion: d.identityVersion } };
  }
  const message = `${subject}\n${text}`;
  return { ...base, send: () => (b.channel === "messenger_a_dm" ? telegramSend(ctx.deps, locator, message) : discordSend(ctx.deps, locator, message)) };
}

/**
 * The gateway's job state as an attempt state and a safe disposition. `queued`
 * covers the job's waiting states; its code (no_active_device, lease_expired…)
 * becomes the disposition so history says why it waits.
 */
export function mapSmsState(state: string, code: string | null): { state: OutboxState; disposition: string } {
  switch (state) {
    case "sent":
      return { state: "sent", disposition: "sent" };
    case "delivered":
      return { state: "delivered", disposition: "delivered" };
    case "sent_unconfirmed":
      return { state: "unconfirmed", disposition: "sent_unconfirmed" };
    case "failed":
      // A third lapsed lease fails the job with lease_expired: the device never confirmed it, no provider refused it.
      return {
        state: "failed",
        disposition: code === "retry_exhausted" || code === "attempts_exhausted" ? "retry_exhausted" : code === "lease_expired" ? "lease_expired" : "provider_failure",
      };
    case "expired":
      return { state: "failed", disposition: code === "lease_expired" ? "lease_expired" : "expired" };
    case "cancelled":
      return { state: "cancelled", disposition: `cancelled_${code ?? "cancelled"}` };
    case "suppressed":
      return { state: "cancelled", disposition: "suppressed_duplicate" };
    case "blocked_policy":
      return { state: "queued", disposition: "policy_blocked" };
    case "blocked_device_required":
      return { state: "queued", disposition: "no_eligible_device" };
    case "retry_wait":
      return { state: "queued", disposition: code === "lease_expired" ? "lease_expired" : "retry_wait" };
    default:
      // pending (back in the queue after a lapsed lease: code lease_expired) or leased.
      return { state: "queued", disposition: code === "lease_expired" ? "lease_expired" : "queued" };
  }
}

/** Reads the gateway state of open SMS attempts and records it. Returns how many changed. */
async function followSmsJobs(ctx: TenantCtx, batch: number): Promise<number> {
  const open = await db(ctx)
    .select()
    .from(planningNotificationOutbox)
    .where(and(inArray(planningNotificationOutbox.state, ["queued", "unconfirmed"]), eq(planningNotificationOutbox.channel, "sms")))
    .orderBy(asc(planningNotificationOutbox.updatedAt))
    .limit(batch);
  let changed = 0;
  for (const a of open) if (await withTx(ctx, (ctx) => syncSmsAttempt(ctx, a))) changed++;
  return changed;
}

async function syncSmsAttempt(ctx: TenantCtx, a: OutboxRow): Promise<boolean> {
  if (!a.smsJobId) return false;
  const job = await smsJobState(ctx, a.smsJobId);
  const mapped = mapSmsState(job.state, job.code);
  if (mapped.state === a.state && mapped.disposition === a.disposition) return false;
  return moveAttempt(ctx, a.id, ["queued", "unconfirmed"], mapped.state, mapped.disposition);
}

// ---------------------------------------------------------------- retry, reconcile, history

/** The attempt if the caller may act on it: their own, or any in a project they lead (or planning_admin). Else 404. */
async function loadVisibleAttempt(ctx: ScopeCtx, projectId: string, outboxId: string): Promise<OutboxRow> {
  await requireProjectAccess(ctx, projectId, "view", { anyState: true });
  const a = (await db(ctx).select().from(planningNotificationOutbox).where(and(eq(planningNotificationOutbox.id, outboxId), eq(planningNotificationOutbox.projectId, projectId))))[0];
  if (!a || !(await seesAllAttempts(ctx, projectId) || a.recipientUserId === ctx.actorId)) throw notFound("outbox entry");
  return a;
}

async function seesAllAttempts(ctx: ScopeCtx, projectId: string): Promise<boolean> {
  if (ctx.capabilities?.has("planning_admin")) return true;
  return (await projectRoleOf(ctx, projectId)) === "lead";
}

/**
 * A failed attempt gets a new attempt (pending) of the same logical reminder. 409
 * when the attempt did not fail, was already retried, its reminder was cancelled,
 * or its binding changed; 409 retry_exhausted after MAX_ATTEMPTS.
 */
export async function retryAttempt(ctx: ScopeCtx, projectId: string, outboxId: string) {
  return withTx(ctx, async (ctx) => {
    const a = await loadVisibleAttempt(ctx, projectId, outboxId);
    if (a.state !== "failed") throw new AppError("state_conflict", `the attempt is ${a.state}; only a failed attempt can be retried`);
    const later = await db(ctx).select({ id: planningNotificationOutbox.id }).from(planningNotificationOutbox).where(eq(planningNotificationOutbox.retryOf, a.id));
    if (later.length > 0) throw new AppError("state_conflict", "this attempt was already retried; retry the latest attempt");
    const d = await loadDelivery(ctx, a.deliveryId);
    if (d.state === "cancelled") throw new AppError("state_conflict", `the reminder was cancelled (${d.cancelReason}); it is not sent again`);
    if (a.channel !== "email") {
      const b = await currentBinding(ctx, a);
      if (!b || b.readiness !== "ready" || b.identityVersion !== d.identityVersion) {
        throw new AppError(a.channel === "sms" ? "sms_verification_required" : "channel_unavailable", "the channel was relinked, unlinked or is not ready; this reminder cannot be retried on it");
      }
      if (a.channel === "sms" && b.smsConsent !== "granted") throw new AppError("sms_consent_required", `consent is ${b.smsConsent}`);
    }
    const [n] = await db(ctx).select({ n: count() }).from(planningNotificationOutbox).where(eq(planningNotificationOutbox.deliveryId, d.id));
    if ((n?.n ?? 0) >= MAX_ATTEMPTS) throw new AppError("retry_exhausted", `this reminder already had ${MAX_ATTEMPTS} attempts`);
    const maxNo = (await db(ctx).select({ no: planningNotificationOutbox.attemptNo }).from(planningNotificationOutbox).where(eq(planningNotificationOutbox.deliveryId, d.id)).orderBy(desc(planningNotificationOutbox.attemptNo)).limit(1))[0]?.no ?? 0;
    const next = await newAttempt(ctx, d, maxNo + 1, a.id);
    await recordAudit(ctx, { projectId, recordType: "notification_outbox", recordId: next.id, action: "retried", data: { retryOf: a.id, channel: a.channel } });
    return toAttemptDto(next);
  });
}

/**
 * Re-reads the real outcome of an open attempt: a queued or unconfirmed SMS from
 * the gateway's job state; a pending attempt whose logical reminder was cancelled
 * becomes cancelled. A terminal attempt is 409 (attempts stay immutable).
 */
export async function reconcileAttempt(ctx: ScopeCtx, projectId: string, outboxId: string) {
  return withTx(ctx, async (ctx) => {
    const a = await loadVisibleAttempt(ctx, projectId, outboxId);
    if (TERMINAL.includes(a.state)) throw new AppError("state_conflict", `the attempt is already ${a.state}; a finished attempt never changes`);
    if (a.smsJobId) await syncSmsAttempt(ctx, a);
    else if (a.state === "pending") {
      const d = await loadDelivery(ctx, a.deliveryId);
      if (d.state === "cancelled") await moveAttempt(ctx, a.id, ["pending"], "cancelled", `cancelled_${d.cancelReason ?? "no_longer_eligible"}`);
    }
    const now = (await db(ctx).select().from(planningNotificationOutbox).where(eq(planningNotificationOutbox.id, a.id)))[0]!;
    await recordAudit(ctx, { projectId, recordType: "notification_outbox", recordId: a.id, action: "reconciled", data: { state: now.state, disposition: now.disposition } });
    return toAttemptDto(now);
  });
}

/** Attempts of the project, newest first (recordedAt, id): all of them for leads and planning_admin, the caller's own otherwise. */
export async function listDeliveryHistory(ctx: RequestCtx, projectId: string, q: z.output<typeof DeliveryHistoryQuery>) {
  await requireProjectAccess(ctx, projectId, "view", { anyState: true });
  const own = (await seesAllAttempts(ctx, projectId)) ? undefined : eq(planningNotificationOutbox.recipientUserId, ctx.actorId);
  const filters = new FilterSet()
    .add("channel", q.channel, (v) => inArray(planningNotificationOutbox.channel, v))
    .add("state", q.state, (v) => inArray(planningNotificationOutbox.state, v));
  const t = planningNotificationOutbox;
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: t.recordedAt,
      orderId: t.id,
      where: filters.where(eq(t.projectId, projectId), own),
      page: (qq, where, orderBy, limit) => qq.select().from(t).where(where).orderBy(...orderBy).limit(limit),
      count: (qq, where) => qq.select({ n: count() }).from(t).where(where),
      position: (r: OutboxRow) => ({ t: r.recordedAt, i: r.id }),
    },
    toAttemptDto,
  );
}
