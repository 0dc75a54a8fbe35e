// Moves of a queued SMS and the sweeps that enforce time: every state change goes
// through moveJob, which writes the state timeline and scrubs the ciphertexts once
// the job can no longer be sent. Callers hold the partner's write transaction.
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { smsGatewayAttempts, smsGatewayBindings, smsGatewayJobs, smsGatewayJobStates, type SmsJobState } from "./sms-gateway.tables.ts";
import { DELIVERY_WINDOW_SECONDS, MAX_LEASE_EXPIRIES, SWEEP_BATCH } from "./sms-gateway.policy.ts";

export type SmsJobRow = typeof smsGatewayJobs.$inferSelect;
export type SmsAttemptRow = typeof smsGatewayAttempts.$inferSelect;

/** States a job never leaves. */
export const FINAL_STATES: ReadonlySet<SmsJobState> = new Set(["delivered", "failed", "cancelled", "suppressed", "expired"]);
/** States from which the job can still be handed to a device (after its own checks). */
export const QUEUED_STATES = ["pending", "blocked_device_required", "blocked_policy", "retry_wait"] as const satisfies readonly SmsJobState[];
/**
 * States a cancellation stops: queued, or leased and not yet reported sent (a
 * device holding the lease fails its recheck). Once sent, a message cannot be
 * called back: sent and sent_unconfirmed jobs keep their state and evidence.
 */
export const CANCELLABLE_STATES: ReadonlySet<SmsJobState> = new Set([...QUEUED_STATES, "leased"]);
/**
 * Once sent or final, the phone number and text are never needed again: both
 * ciphertexts are dropped and only the payload digest remains.
 */
const SCRUB_STATES: ReadonlySet<SmsJobState> = new Set([...FINAL_STATES, "sent", "sent_unconfirmed"]);

const addSeconds = (iso: string, s: number) => new Date(new Date(iso).getTime() + s * 1000).toISOString();

/** Moves a job (in the open transaction) and records the state with its time and safe code. */
export async function moveJob(ctx: TenantCtx, job: SmsJobRow, next: SmsJobState, code: string | null, patch: Partial<SmsJobRow> = {}): Promise<SmsJobRow> {
  const scrub = SCRUB_STATES.has(next) ? { phoneCiphertext: null, textCiphertext: null } : {};
  // leaseId and leasedDeviceId stay as the last lease's, so a late receipt finds the attempt that holds the job.
  const leaseEnds = next === "leased" ? {} : { leaseExpiresAt: null };
  const row: SmsJobRow = {
    ...job,
    ...leaseEnds,
    ...patch,
    ...scrub,
    state: next,
    stateCode: code,
    terminalAt: FINAL_STATES.has(next) ? ctx.nowIso : job.terminalAt,
    version: job.version + 1,
    updatedAt: ctx.nowIso,
  };
  const { id, createdAt, createdBy, ...changes } = row;
  await writer(ctx).update(smsGatewayJobs).set(changes).where(eq(smsGatewayJobs.id, id));
  if (job.state !== next || job.stateCode !== code) {
    await writer(ctx).insert(smsGatewayJobStates).values({ id: ctx.deps.newId(), jobId: id, state: next, code, at: ctx.nowIso, actor: ctx.actorId });
  }
  void createdAt;
  void createdBy;
  return row;
}

export async function recordInitialState(ctx: TenantCtx, job: SmsJobRow): Promise<void> {
  await writer(ctx).insert(smsGatewayJobStates).values({ id: ctx.deps.newId(), jobId: job.id, state: job.state, code: job.stateCode, at: ctx.nowIso, actor: ctx.actorId });
}

export type SmsBindingRow = typeof smsGatewayBindings.$inferSelect;

/**
 * Cancels a queued or leased job (in the open transaction): `cancelled` with the
 * code in its timeline, its cancellation revision raised (at least to
 * `revision`), its ciphertexts dropped. An unconfirmed lease's attempt is
 * `abandoned` (the device never got a go-ahead); a confirmed one keeps its
 * outcome, so a receipt the device still sends is kept as evidence.
 */
export async function cancelJob(ctx: TenantCtx, job: SmsJobRow, code: string, revision = job.cancellationRevision + 1): Promise<SmsJobRow> {
  if (job.state === "leased" && job.leaseId && !job.leaseConfirmedAt) {
    await writer(ctx)
      .update(smsGatewayAttempts)
      .set({ outcome: "abandoned", updatedAt: ctx.nowIso })
      .where(and(eq(smsGatewayAttempts.leaseId, job.leaseId), eq(smsGatewayAttempts.outcome, "leased")));
  }
  const moved = await moveJob(ctx, job, "cancelled", code, { cancellationRevision: Math.max(revision, job.cancellationRevision + 1) });
  ctx.deps.log.info("sms job cancelled", { partnerId: ctx.partnerId, jobId: job.id, code });
  return moved;
}

/**
 * Whether the job may still go to its binding: the binding accepts the job's
 * purpose now (reminders and tests need a verified number with consent; a
 * verification code needs a verification in progress) and the job's identity
 * version and cancellation revision are the binding's current ones. A job
 * without a binding (queued before bindings were recorded) never goes out.
 * `cache` spares a lease re-reading one binding per job.
 */
export async function bindingAllows(
  ctx: TenantCtx,
  job: Pick<SmsJobRow, "bindingId" | "purpose" | "identityVersion" | "cancellationRevision">,
  cache = new Map<string, SmsBindingRow | null>(),
): Promise<boolean> {
  if (!job.bindingId) return false;
  let binding = cache.get(job.bindingId);
  if (binding === undefined) {
    binding = (await db(ctx).select().from(smsGatewayBindings).where(eq(smsGatewayBindings.id, job.bindingId)))[0] ?? null;
    cache.set(job.bindingId, binding);
  }
  if (!binding) return false;
  const accepted = job.purpose === "verification" ? binding.accepts === "verification" : binding.accepts === "reminders";
  return accepted && job.identityVersion === binding.identityVersion && job.cancellationRevision === binding.cancellationRevision;
}

/**
 * A lease the device never confirmed is over: the job goes back to the queue
 * (`pending`, code lease_expired), or fails after MAX_LEASE_EXPIRIES, or expires
 * if its own deadline passed. The attempt keeps its record as `lease_expired`.
 */
export async function endExpiredLease(ctx: TenantCtx, job: SmsJobRow): Promise<SmsJobRow> {
  await writer(ctx)
    .update(smsGatewayAttempts)
    .set({ outcome: "lease_expired", updatedAt: ctx.nowIso })
    .where(and(eq(smsGatewayAttempts.leaseId, job.leaseId ?? ""), eq(smsGatewayAttempts.outcome, "leased")));
  const expiredLeases = job.expiredLeases + 1;
  ctx.deps.log.info("sms lease expired", { partnerId: ctx.partnerId, jobId: job.id, expiredLeases });
  if (job.expiresAt <= ctx.nowIso) return moveJob(ctx, job, "expired", "job_expired", { expiredLeases });
  if (expiredLeases >= MAX_LEASE_EXPIRIES) return moveJob(ctx, job, "failed", "lease_expired", { expiredLeases });
  return moveJob(ctx, job, "pending", "lease_expired", { expiredLeases });
}

export interface SweepCounts {
  leasesRequeued: number;
  unconfirmed: number;
  retriesDue: number;
  expired: number;
}

/**
 * The sweep's probe (reads only): the earliest time one of its four rules applies to a
 * job (an unconfirmed lease's expiry, the end of a send's or a confirmed lease's delivery
 * window, the end of a retry backoff, a queued job's deadline), or null when no job is in
 * a state any rule applies to.
 */
export async function smsSweepDueAt(ctx: TenantCtx): Promise<string | null> {
  const q = db(ctx);
  const times: Array<string | null> = [];
  const first = async (where: SQL | undefined, column: SQLiteColumn): Promise<string | null> =>
    (await q.select({ at: sql<string | null>`${column}` }).from(smsGatewayJobs).where(where).orderBy(asc(column)).limit(1))[0]?.at ?? null;
  times.push(await first(and(eq(smsGatewayJobs.state, "leased"), isNull(smsGatewayJobs.leaseConfirmedAt), isNotNull(smsGatewayJobs.leaseExpiresAt)), smsGatewayJobs.leaseExpiresAt));
  const sent = await first(and(eq(smsGatewayJobs.state, "sent"), isNotNull(smsGatewayJobs.sentAt)), smsGatewayJobs.sentAt);
  if (sent !== null) times.push(addSeconds(sent, DELIVERY_WINDOW_SECONDS));
  const confirmed = await first(and(eq(smsGatewayJobs.state, "leased"), isNotNull(smsGatewayJobs.leaseConfirmedAt)), smsGatewayJobs.leaseConfirmedAt);
  if (confirmed !== null) times.push(addSeconds(confirmed, DELIVERY_WINDOW_SECONDS));
  times.push(await first(and(eq(smsGatewayJobs.state, "retry_wait"), isNotNull(smsGatewayJobs.nextAttemptAt)), smsGatewayJobs.nextAttemptAt));
  times.push(await first(inArray(smsGatewayJobs.state, [...QUEUED_STATES]), smsGatewayJobs.expiresAt));
  const due = times.filter((t): t is string => t !== null).sort();
  return due[0] ?? null;
}

/**
 * One pass of the time rules, in batches (one transaction each): unconfirmed
 * leases past expiry go back to the queue; sends with no report within the
 * delivery window become sent_unconfirmed; retry_wait jobs whose backoff ended
 * are pending again; queued jobs past their deadline expire.
 */
export async function sweepSmsQueue(ctx: TenantCtx, opts: { batch?: number; signal?: AbortSignal } = {}): Promise<SweepCounts> {
  const batch = opts.batch ?? SWEEP_BATCH;
  const counts: SweepCounts = { leasesRequeued: 0, unconfirmed: 0, retriesDue: 0, expired: 0 };
  const windowStart = addSeconds(ctx.nowIso, -DELIVERY_WINDOW_SECONDS);
  const passes: Array<{ key: keyof SweepCounts; select: (ctx: TenantCtx) => Promise<SmsJobRow[]>; apply: (ctx: TenantCtx, job: SmsJobRow) => Promise<unknown> }> = [
    {
      key: "leasesRequeued",
      select: (ctx) =>
        db(ctx)
          .select()
          .from(smsGatewayJobs)
          .where(and(eq(smsGatewayJobs.state, "leased"), isNull(smsGatewayJobs.leaseConfirmedAt), lte(smsGatewayJobs.leaseExpiresAt, ctx.nowIso)))
          .orderBy(asc(smsGatewayJobs.leaseExpiresAt))
          .limit(batch),
      apply: (ctx, job) => endExpiredLease(ctx, job),
    },
    {
      key: "unconfirmed",
      select: (ctx) =>
        db(ctx)
          .select()
          .from(smsGatewayJobs)
          .where(
            or(
              and(eq(smsGatewayJobs.state, "sent"), lte(smsGatewayJobs.sentAt, windowStart)),
              and(eq(smsGatewayJobs.state, "leased"), isNotNull(smsGatewayJobs.leaseConfirmedAt), lte(smsGatewayJobs.leaseConfirmedAt, windowStart)),
            ),
          )
          .limit(batch),
      apply: async (ctx, job) => {
        await writer(ctx)
          .update(smsGatewayAttempts)
          .set({ outcome: "sent_unconfirmed", updatedAt: ctx.nowIso })
          .where(and(eq(smsGatewayAttempts.jobId, job.id), inArray(smsGatewayAttempts.outcome, ["sending", "sent"])));
        // Never re-sent: the device may have sent it; only a late receipt can still settle it.
        return moveJob(ctx, job, "sent_unconfirmed", job.state === "sent" ? "no_delivery_report" : "no_send_receipt");
      },
    },
    {
      key: "retriesDue",
      select: (ctx) =>
        db(ctx)
          .select()
          .from(smsGatewayJobs)
          .where(and(eq(smsGatewayJobs.state, "retry_wait"), lte(smsGatewayJobs.nextAttemptAt, ctx.nowIso)))
          .limit(batch),
      apply: (ctx, job) => (job.expiresAt <= ctx.nowIso ? moveJob(ctx, job, "expired", "job_expired") : moveJob(ctx, job, "pending", "retry_due", { nextAttemptAt: null })),
    },
    {
      key: "expired",
      select: (ctx) =>
        db(ctx)
          .select()
          .from(smsGatewayJobs)
          .where(and(inArray(smsGatewayJobs.state, [...QUEUED_STATES]), lte(smsGatewayJobs.expiresAt, ctx.nowIso)))
          .limit(batch),
      apply: (ctx, job) => moveJob(ctx, job, "expired", "job_expired"),
    },
  ];
  for (const pass of passes) {
    for (;;) {
      const n = await withTx(ctx, async (ctx) => {
        const rows = await pass.select(ctx);
        for (const job of rows) await pass.apply(ctx, job);
        return rows.length;
      });
      counts[pass.key] += n;
      if (n < batch || opts.signal?.aborted) break;
    }
  }
  return counts;
}
