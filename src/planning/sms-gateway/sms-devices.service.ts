// Devices of the SMS gateway: their native tokens (issued, rotated, revoked by a
// planning_admin) and what a device does with one: preflight, heartbeat, lease,
// recheck, receipt. The partner's device record is the authority on the token
// (the registry only finds the partner): a token that is not the device's current
// one is a 401 even if the registry has not caught up.
import { and, asc, count, eq, gt, inArray, isNull, lte, or, sum, notInArray } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import type { DeviceCtx, RequestCtx } from "../../platform/http/context.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { registerDeviceToken, revokeDeviceTokens, type DeviceCaller } from "../../platform/auth/device-token.ts";
import { requireProjectAccess } from "../projects/index.ts";
import { smsGatewayAttempts, smsGatewayDevices, smsGatewayJobs } from "./sms-gateway.tables.ts";
import { decryptPhone, decryptText, nativeTokenDigest, newNativeToken, payloadDigestOf } from "./sms-gateway.crypto.ts";
import { bindingAllows, cancelJob, endExpiredLease, moveJob, type SmsBindingRow, type SmsJobRow } from "./sms-gateway.queue.ts";
import {
  DEVICE_DEFAULTS,
  HEARTBEAT_TTL_SECONDS,
  LEASE_SECONDS,
  MAX_JOBS_PER_LEASE,
  MAX_SEND_ATTEMPTS,
  PARTNER_DAILY_SEGMENT_CEILING,
  PARTNER_SENDS_PER_MINUTE,
  RETRY_BASE_SECONDS,
  RETRY_FACTOR,
  RETRYABLE_ANDROID_RESULTS,
} from "./sms-gateway.policy.ts";
import type { Heartbeat, LeaseRequest, NativeTokenAction, Receipt, Recheck } from "./sms-gateway.schemas.ts";
import { REQUIRED_PERMISSIONS, addSeconds, countriesOf, eligibility, type DeviceRow, type Permissions, type Sim } from "./sms-gateway.eligibility.ts";

type AttemptRow = typeof smsGatewayAttempts.$inferSelect;

function policyOf(d: DeviceRow) {
  return {
    allowedCountries: JSON.parse(d.allowedCountries) as string[],
    maxSegmentsPerMessage: d.maxSegmentsPerMessage,
    dailySegmentCeiling: d.dailySegmentCeiling,
    sendsPerMinute: d.sendsPerMinute,
    partnerSendsPerMinute: PARTNER_SENDS_PER_MINUTE,
    partnerDailySegmentCeiling: PARTNER_DAILY_SEGMENT_CEILING,
    leaseSeconds: LEASE_SECONDS,
    heartbeatIntervalSeconds: Math.floor(HEARTBEAT_TTL_SECONDS / 2),
  };
}

export function toDeviceDto(d: DeviceRow) {
  return {
    id: d.id,
    projectId: d.projectId,
    state: d.state,
    tokenRevision: d.tokenRevision,
    tokenIssuedAt: d.tokenIssuedAt,
    policy: policyOf(d),
    lastHeartbeatAt: d.lastHeartbeatAt,
    online: d.online,
    version: d.version,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    createdBy: d.createdBy,
  };
}

// ------------------------------------------------------------------ native tokens

/**
 * issue: creates the device (or re-activates a revoked one) with a new token;
 * rotate: a new token, the old one stops working at once; revoke: no token, the
 * device's calls are 401 from this moment. The token is returned once; the
 * partner's device record and the registry keep only its digest. The tenant
 * write commits first, so a registry failure can only leave a token that does not
 * work (the admin retries), never one that works after a revoke.
 */
export async function nativeTokenAction(ctx: RequestCtx, projectId: string, deviceId: string, input: z.output<typeof NativeTokenAction>) {
  await requireProjectAccess(ctx, projectId, "view");
  if (input.action === "revoke" && input.policy) throw new AppError("validation_failed", "revoke takes no policy", { errors: [{ path: "/body/policy", message: "not allowed with revoke" }] });
  const token = input.action === "revoke" ? null : newNativeToken();
  const digest = token === null ? null : nativeTokenDigest(ctx.deps, token);
  const device = await withTx(ctx, async (ctx) => {
    const q = writer(ctx);
    const existing = (await q.select().from(smsGatewayDevices).where(eq(smsGatewayDevices.id, deviceId)))[0];
    if (existing && existing.projectId !== projectId) throw notFound("SMS gateway device");
    const policy = input.policy ?? {};
    const policyPatch = {
      ...(policy.allowedCountries ? { allowedCountries: JSON.stringify([...new Set(policy.allowedCountries)].sort()) } : {}),
      ...(policy.maxSegmentsPerMessage ? { maxSegmentsPerMessage: policy.maxSegmentsPerMessage } : {}),
      ...(policy.dailySegmentCeiling ? { dailySegmentCeiling: policy.dailySegmentCeiling } : {}),
      ...(policy.sendsPerMinute ? { sendsPerMinute: policy.sendsPerMinute } : {}),
    };
    if (!existing) {
      if (input.action !== "issue") throw notFound("SMS gateway device");
      const row: DeviceRow = {
        id: deviceId,
        projectId,
        state: "active",
        tokenDigest: digest,
        tokenRevision: 1,
        tokenIssuedAt: ctx.nowIso,
        allowedCountries: "[]",
        ...DEVICE_DEFAULTS,
        lastHeartbeatAt: null,
        online: false,
        batteryPercent: null,
        charging: null,
        permissions: "null",
        sims: "[]",
        version: 1,
        createdAt: ctx.nowIso,
        updatedAt: ctx.nowIso,
        createdBy: ctx.actorId,
        ...policyPatch,
      };
      await q.insert(smsGatewayDevices).values(row);
      return row;
    }
    if (input.action === "issue" && existing.state === "active") {
      throw new AppError("state_conflict", "the device is active and already has a token; rotate or revoke it (state: active)");
    }
    if (input.action !== "issue" && existing.state === "revoked") {
      throw new AppError("state_conflict", `cannot ${input.action} the token of a revoked device; issue a new one (state: revoked)`);
    }
    const next: DeviceRow = {
      ...existing,
      ...policyPatch,
      state: input.action === "revoke" ? "revoked" : "active",
      tokenDigest: digest,
      tokenRevision: existing.tokenRevision + 1,
      tokenIssuedAt: input.action === "revoke" ? existing.tokenIssuedAt : ctx.nowIso,
      online: input.action === "revoke" ? false : existing.online,
      version: existing.version + 1,
      updatedAt: ctx.nowIso,
    };
    const { id, ...changes } = next;
    await q.update(smsGatewayDevices).set(changes).where(eq(smsGatewayDevices.id, id));
    return next;
  });
  // Registry: the new digest first, then every other digest of the device revoked.
  if (digest !== null) await registerDeviceToken(ctx.deps, { digest, partnerId: ctx.partnerId, deviceId, now: ctx.nowIso });
  await revokeDeviceTokens(ctx.deps, { partnerId: ctx.partnerId, deviceId, now: ctx.nowIso, keep: digest ?? undefined });
  ctx.deps.log.info("sms device token changed", { partnerId: ctx.partnerId, deviceId, action: input.action, tokenRevision: device.tokenRevision });
  return { device: toDeviceDto(device), nativeToken: token };
}

// ------------------------------------------------------------------ device calls

function callerOf(ctx: DeviceCtx, deviceId: string): DeviceCaller {
  const caller = ctx.device;
  if (caller.deviceId !== deviceId) throw new AppError("unauthenticated", "this token does not belong to that device");
  return caller;
}

/** The calling device's record, if its token is still the current one (else 401). */
async function requireCallingDevice(ctx: DeviceCtx, deviceId: string): Promise<DeviceRow> {
  const caller = callerOf(ctx, deviceId);
  const device = (await db(ctx).select().from(smsGatewayDevices).where(eq(smsGatewayDevices.id, deviceId)))[0];
  if (!device || device.state !== "active" || device.tokenDigest !== caller.tokenDigest) {
    throw new AppError("unauthenticated", "the device token is unknown, rotated or revoked");
  }
  return device;
}

function preflightOf(ctx: TenantCtx, d: DeviceRow) {
  const e = eligibility(ctx, d);
  return {
    deviceId: d.id,
    state: d.state,
    eligible: e.code === null,
    code: e.code,
    requiredPermissions: [...REQUIRED_PERMISSIONS],
    permissions: JSON.parse(d.permissions) as Permissions | null,
    sims: JSON.parse(d.sims) as Sim[],
    country: e.code === null ? e.sim.country : null,
    policy: policyOf(d),
    lastHeartbeatAt: d.lastHeartbeatAt,
    online: d.online && e.code !== "device_offline",
    batteryPercent: d.batteryPercent,
    charging: d.charging,
  };
}

export async function devicePreflight(ctx: DeviceCtx, deviceId: string) {
  return preflightOf(ctx, await requireCallingDevice(ctx, deviceId));
}

/**
 * The device's state as it reports it. When it is eligible after this beat, jobs
 * waiting for a device (blocked_device_required) go back to `pending`.
 */
export async function deviceHeartbeat(ctx: DeviceCtx, deviceId: string, input: z.output<typeof Heartbeat>) {
  return withTx(ctx, async (ctx) => {
    const device = await requireCallingDevice(ctx, deviceId);
    const next: DeviceRow = {
      ...device,
      online: input.online,
      lastHeartbeatAt: ctx.nowIso,
      batteryPercent: input.batteryPercent ?? null,
      charging: input.charging ?? null,
      permissions: JSON.stringify(input.permissions),
      sims: JSON.stringify(input.sims),
      version: device.version + 1,
      updatedAt: ctx.nowIso,
    };
    const { id, ...changes } = next;
    await writer(ctx).update(smsGatewayDevices).set(changes).where(eq(smsGatewayDevices.id, id));
    if (eligibility(ctx, next).code === null) {
      const waiting = await writer(ctx).select().from(smsGatewayJobs).where(eq(smsGatewayJobs.state, "blocked_device_required")).limit(500);
      for (const job of waiting) await moveJob(ctx, job, "pending", "device_available");
    }
    return preflightOf(ctx, next);
  });
}

/** Is any active device of the partner eligible now (other than `except`)? */
async function anotherEligibleDevice(ctx: TenantCtx, except: string): Promise<boolean> {
  const devices = await db(ctx).select().from(smsGatewayDevices).where(eq(smsGatewayDevices.state, "active"));
  return devices.some((d) => d.id !== except && eligibility(ctx, d).code === null);
}

/** Segments leased (and not returned unsent) since `since`, by one device or the whole partner. */
async function segmentsSince(ctx: TenantCtx, since: string, deviceId?: string): Promise<{ sends: number; segments: number }> {
  const row = (
    await db(ctx)
      .select({ sends: count(), segments: sum(smsGatewayAttempts.segments) })
      .from(smsGatewayAttempts)
      .where(
        and(
          gt(smsGatewayAttempts.leasedAt, since),
          notInArray(smsGatewayAttempts.outcome, ["lease_expired", "abandoned"]),
          deviceId ? eq(smsGatewayAttempts.deviceId, deviceId) : undefined,
        ),
      )
  )[0];
  return { sends: row?.sends ?? 0, segments: Number(row?.segments ?? 0) };
}

/**
 * Hands out jobs to the calling device: only when it is online with a current
 * heartbeat, the permissions, and a verified active non-roaming SIM; only jobs
 * whose country its policy allows, within its segment limit, its and the
 * partner's pacing and daily segment ceilings, unexpired, with an intact payload.
 * A lease lasts LEASE_SECONDS; a recheck confirms it. Leases of this device not
 * yet expired are handed out again (a retried call loses nothing) and a job is
 * never leased to two devices: the state moves to `leased` in the same
 * transaction that selects it, under the partner's write lock.
 */
export async function leaseJobs(ctx: DeviceCtx, deviceId: string, input: z.output<typeof LeaseRequest>) {
  const max = Math.min(input.max ?? 5, MAX_JOBS_PER_LEASE);
  return withTx(ctx, async (ctx) => {
    const device = await requireCallingDevice(ctx, deviceId);
    await returnLapsedLeases(ctx);
    const e = eligibility(ctx, device);
    if (e.code !== null) return refuseLease(ctx, device, e);
    const stillBound = bindingCheck(ctx);
    const handed: SmsJobRow[] = [];
    for (const job of await heldLeases(ctx, device.id)) if (await stillBound(job)) handed.push(job);
    const round: LeaseRound = { handed, ...(await leaseAllowance(ctx, device)), blocked: null, retryAfterSeconds: null };
    const countries = countriesOf(device, e.sim);
    for (const job of await leaseCandidates(ctx)) {
      if (round.handed.length >= max) break;
      if (round.sendsLeft <= 0) {
        round.blocked = { code: "paced", detail: "the device's or the partner's sends per minute are used up" };
        round.retryAfterSeconds = 60;
        break;
      }
      if (!(await mayLease(ctx, job, device, countries, round, stillBound))) continue;
      round.handed.push(await leaseJob(ctx, device, job));
      round.sendsLeft--;
      round.segmentsLeft -= job.segments;
    }
    return { jobs: round.handed.map((job) => toLeasedJobDto(ctx, job)), blocked: round.blocked, retryAfterSeconds: round.retryAfterSeconds };
  });
}

/** What one lease call has handed out so far and what its pacing and ceilings still allow. */
interface LeaseRound {
  handed: SmsJobRow[];
  sendsLeft: number;
  segmentsLeft: number;
  blocked: { code: string; detail: string } | null;
  retryAfterSeconds: number | null;
}

/** Real lease expiry, even between sweeps: unconfirmed leases past their time go back first. */
async function returnLapsedLeases(ctx: TenantCtx): Promise<void> {
  const lapsed = await writer(ctx)
    .select()
    .from(smsGatewayJobs)
    .where(and(eq(smsGatewayJobs.state, "leased"), isNull(smsGatewayJobs.leaseConfirmedAt), lte(smsGatewayJobs.leaseExpiresAt, ctx.nowIso)))
    .limit(100);
  for (const job of lapsed) await endExpiredLease(ctx, job);
}

/**
 * The device may not take jobs: when no other device could either, the pending
 * jobs wait for one (blocked_device_required).
 */
async function refuseLease(ctx: TenantCtx, device: DeviceRow, refusal: { code: string; detail: string }) {
  if (!(await anotherEligibleDevice(ctx, device.id))) {
    const waiting = await writer(ctx).select().from(smsGatewayJobs).where(eq(smsGatewayJobs.state, "pending")).limit(500);
    for (const job of waiting) await moveJob(ctx, job, "blocked_device_required", refusal.code);
  }
  ctx.deps.log.info("sms lease refused", { partnerId: ctx.partnerId, deviceId: device.id, code: refusal.code });
  return { jobs: [], blocked: { code: refusal.code, detail: refusal.detail }, retryAfterSeconds: null };
}

/** A job whose binding changed (another identity, a cancelling event, consent withdrawn) is cancelled, never handed out. */
function bindingCheck(ctx: TenantCtx): (job: SmsJobRow) => Promise<boolean> {
  const bindings = new Map<string, SmsBindingRow | null>();
  return async (job) => {
    if (await bindingAllows(ctx, job, bindings)) return true;
    await cancelJob(ctx, job, "binding_changed");
    return false;
  };
}

/** This device's leases not yet confirmed: a retried lease call hands them out again. */
async function heldLeases(ctx: TenantCtx, deviceId: string): Promise<SmsJobRow[]> {
  return writer(ctx)
    .select()
    .from(smsGatewayJobs)
    .where(and(eq(smsGatewayJobs.state, "leased"), eq(smsGatewayJobs.leasedDeviceId, deviceId), isNull(smsGatewayJobs.leaseConfirmedAt)))
    .orderBy(asc(smsGatewayJobs.createdAt));
}

/** Sends left this minute and segments left today: the lower of the device's and the partner's. */
async function leaseAllowance(ctx: TenantCtx, device: DeviceRow): Promise<{ sendsLeft: number; segmentsLeft: number }> {
  const minuteAgo = addSeconds(ctx.nowIso, -60);
  const dayAgo = addSeconds(ctx.nowIso, -24 * 3600);
  const deviceMinute = await segmentsSince(ctx, minuteAgo, device.id);
  const partnerMinute = await segmentsSince(ctx, minuteAgo);
  const deviceDay = await segmentsSince(ctx, dayAgo, device.id);
  const partnerDay = await segmentsSince(ctx, dayAgo);
  return {
    sendsLeft: Math.min(device.sendsPerMinute - deviceMinute.sends, PARTNER_SENDS_PER_MINUTE - partnerMinute.sends),
    segmentsLeft: Math.min(device.dailySegmentCeiling - deviceDay.segments, PARTNER_DAILY_SEGMENT_CEILING - partnerDay.segments),
  };
}

/** Jobs waiting for a device, oldest first: queued, blocked, or due for a retry. */
async function leaseCandidates(ctx: TenantCtx): Promise<SmsJobRow[]> {
  return writer(ctx)
    .select()
    .from(smsGatewayJobs)
    .where(
      or(
        inArray(smsGatewayJobs.state, ["pending", "blocked_device_required", "blocked_policy"]),
        and(eq(smsGatewayJobs.state, "retry_wait"), lte(smsGatewayJobs.nextAttemptAt, ctx.nowIso)),
      ),
    )
    .orderBy(asc(smsGatewayJobs.createdAt), asc(smsGatewayJobs.id))
    .limit(200);
}

/**
 * May this device take the job now? A job that can never go (expired, unbound,
 * payload missing or altered) moves to its final state; one this device's policy
 * refuses is blocked; one over the day's segment ceiling waits (the round is
 * marked cost_ceiling).
 */
async function mayLease(
  ctx: TenantCtx,
  job: SmsJobRow,
  device: DeviceRow,
  countries: string[],
  round: LeaseRound,
  stillBound: (job: SmsJobRow) => Promise<boolean>,
): Promise<boolean> {
  if (job.expiresAt <= ctx.nowIso) {
    await moveJob(ctx, job, "expired", "job_expired");
    return false;
  }
  if (!(await stillBound(job))) return false;
  if (!countries.includes(job.countryCode)) {
    await moveIfChanged(ctx, job, "blocked_policy", "country_not_allowed");
    return false;
  }
  if (job.segments > device.maxSegmentsPerMessage) {
    await moveIfChanged(ctx, job, "blocked_policy", "segment_limit");
    return false;
  }
  if (job.segments > round.segmentsLeft) {
    round.blocked = { code: "cost_ceiling", detail: "the device's or the partner's daily segment ceiling leaves no room for the next job" };
    round.retryAfterSeconds = 3600;
    return false;
  }
  if (!job.phoneCiphertext || !job.textCiphertext) {
    await moveJob(ctx, job, "failed", "payload_missing");
    return false;
  }
  const phone = decryptPhone(ctx.deps, job.id, job.phoneCiphertext);
  const text = decryptText(ctx.deps, job.id, job.textCiphertext);
  if (payloadDigestOf(ctx.deps, phone, text) !== job.payloadDigest) {
    await moveJob(ctx, job, "failed", "payload_mismatch");
    return false;
  }
  return true;
}

/** Leases the job to the device for LEASE_SECONDS and opens its attempt. */
async function leaseJob(ctx: TenantCtx, device: DeviceRow, job: SmsJobRow): Promise<SmsJobRow> {
  const leaseId = ctx.deps.newId();
  const leaseExpiresAt = addSeconds(ctx.nowIso, LEASE_SECONDS);
  const leased = await moveJob(ctx, job, "leased", null, { leaseId, leasedDeviceId: device.id, leaseExpiresAt, leaseConfirmedAt: null, nextAttemptAt: null });
  await writer(ctx).insert(smsGatewayAttempts).values({
    id: ctx.deps.newId(),
    jobId: job.id,
    deviceId: device.id,
    leaseId,
    outcome: "leased",
    segments: job.segments,
    leasedAt: ctx.nowIso,
    leaseExpiresAt,
    recheckedAt: null,
    clientMessageId: null,
    sentAt: null,
    deliveredAt: null,
    failedAt: null,
    androidResultCode: null,
    carrierResultCode: null,
    updatedAt: ctx.nowIso,
  });
  ctx.deps.log.info("sms job leased", { partnerId: ctx.partnerId, deviceId: device.id, jobId: job.id, leaseExpiresAt });
  return leased;
}

/** A leased job as the device receives it: the only place its phone number and text leave the vault. */
function toLeasedJobDto(ctx: TenantCtx, job: SmsJobRow) {
  return {
    jobId: job.id,
    leaseId: job.leaseId!,
    leaseExpiresAt: job.leaseExpiresAt!,
    phoneE164: decryptPhone(ctx.deps, job.id, job.phoneCiphertext!),
    text: decryptText(ctx.deps, job.id, job.textCiphertext!),
    payloadDigest: job.payloadDigest,
    identityVersion: job.identityVersion,
    cancellationRevision: job.cancellationRevision,
    encoding: job.encoding,
    segments: job.segments,
    expiresAt: job.expiresAt,
  };
}

async function moveIfChanged(ctx: TenantCtx, job: SmsJobRow, state: SmsJobRow["state"], code: string): Promise<void> {
  if (job.state !== state || job.stateCode !== code) await moveJob(ctx, job, state, code);
}

async function loadJob(ctx: TenantCtx, jobId: string): Promise<SmsJobRow> {
  const job = (await writer(ctx).select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, jobId)))[0];
  if (!job) throw notFound("SMS job");
  return job;
}

async function loadAttempt(ctx: TenantCtx, jobId: string, deviceId: string, leaseId: string): Promise<AttemptRow> {
  const attempt = (
    await writer(ctx)
      .select()
      .from(smsGatewayAttempts)
      .where(and(eq(smsGatewayAttempts.leaseId, leaseId), eq(smsGatewayAttempts.jobId, jobId), eq(smsGatewayAttempts.deviceId, deviceId)))
  )[0];
  if (!attempt) throw notFound("lease");
  return attempt;
}

/**
 * Immediately before sending: is this lease still this device's, unexpired, the
 * job unexpired and uncancelled, its binding unchanged (same identity version and
 * cancellation revision, still accepting the job: a changed binding cancels the
 * job, `binding_changed`), and the payload, identity version and cancellation
 * revision the ones the device holds? `proceed: true` confirms the lease: from then on the job
 * is never handed to anyone again (no second send); without a receipt within the
 * delivery window it becomes sent_unconfirmed. Repeating a successful recheck
 * answers the same.
 */
export async function recheckJob(ctx: DeviceCtx, deviceId: string, jobId: string, input: z.output<typeof Recheck>) {
  return withTx(ctx, async (ctx) => {
    await requireCallingDevice(ctx, deviceId);
    let job = await loadJob(ctx, jobId);
    const attempt = await loadAttempt(ctx, jobId, deviceId, input.leaseId);
    const answer = (proceed: boolean, code: string | null) => ({ jobId, proceed, code, state: job.state });
    if (job.leaseId !== input.leaseId || job.state !== "leased") {
      if (job.state === "cancelled") return answer(false, "cancelled");
      if (job.state === "expired") return answer(false, "job_expired");
      return answer(false, attempt.outcome === "lease_expired" ? "lease_expired" : "lease_not_held");
    }
    if (!(await bindingAllows(ctx, job))) {
      job = await cancelJob(ctx, job, "binding_changed");
      return answer(false, "binding_changed");
    }
    if (job.leaseConfirmedAt) return answer(true, null);
    if (job.leaseExpiresAt! <= ctx.nowIso) {
      job = await endExpiredLease(ctx, job);
      return answer(false, job.state === "expired" ? "job_expired" : "lease_expired");
    }
    if (job.expiresAt <= ctx.nowIso) {
      job = await moveJob(ctx, job, "expired", "job_expired");
      await writer(ctx).update(smsGatewayAttempts).set({ outcome: "abandoned", updatedAt: ctx.nowIso }).where(eq(smsGatewayAttempts.id, attempt.id));
      return answer(false, "job_expired");
    }
    if (input.cancellationRevision !== job.cancellationRevision) return answer(false, "revision_changed");
    if (input.identityVersion !== undefined && input.identityVersion !== job.identityVersion) return answer(false, "identity_changed");
    if (input.payloadDigest !== job.payloadDigest) return answer(false, "payload_changed");
    job = await moveJob(ctx, job, "leased", null, { leaseConfirmedAt: ctx.nowIso });
    await writer(ctx).update(smsGatewayAttempts).set({ outcome: "sending", recheckedAt: ctx.nowIso, updatedAt: ctx.nowIso }).where(eq(smsGatewayAttempts.id, attempt.id));
    return answer(true, null);
  });
}

/**
 * The device's native report. It changes only channel evidence (this attempt and
 * the job's delivery state), never a planning record. clientMessageId is bound to
 * the attempt by its first receipt and is unique per device; a repeated receipt
 * is answered from the stored state. Sending before a successful recheck is 409.
 * A failure before `sent` with a retryable Android result waits (retry_wait, with
 * backoff) and is tried again up to MAX_SEND_ATTEMPTS; a failure after `sent` is
 * final (the message may have reached the network: never sent twice).
 */
export async function recordReceipt(ctx: DeviceCtx, deviceId: string, jobId: string, input: z.output<typeof Receipt>) {
  return withTx(ctx, async (ctx) => {
    await requireCallingDevice(ctx, deviceId);
    let job = await loadJob(ctx, jobId);
    let attempt = await loadAttempt(ctx, jobId, deviceId, input.leaseId);
    if (!attempt.recheckedAt) throw new AppError("state_conflict", `recheck the job before sending it (attempt: ${attempt.outcome})`);
    if (attempt.clientMessageId !== null && attempt.clientMessageId !== input.clientMessageId) {
      throw new AppError("state_conflict", "this lease's message already has another clientMessageId");
    }
    if (attempt.clientMessageId === null) {
      const clash = (
        await writer(ctx)
          .select({ id: smsGatewayAttempts.id })
          .from(smsGatewayAttempts)
          .where(and(eq(smsGatewayAttempts.deviceId, deviceId), eq(smsGatewayAttempts.clientMessageId, input.clientMessageId)))
      )[0];
      if (clash) throw new AppError("duplicate", "this device already used that clientMessageId for another message");
    }
    const evidence: Partial<AttemptRow> = {
      clientMessageId: input.clientMessageId,
      ...(input.androidResultCode !== undefined ? { androidResultCode: input.androidResultCode } : {}),
      ...(input.carrierResultCode !== undefined ? { carrierResultCode: input.carrierResultCode } : {}),
      updatedAt: ctx.nowIso,
    };
    const settled = attempt.outcome === "delivered" || attempt.outcome === "failed";
    if (input.status === "sent" && !attempt.sentAt && !settled) Object.assign(evidence, { sentAt: ctx.nowIso, outcome: "sent" });
    if (input.status === "delivered" && !attempt.deliveredAt) Object.assign(evidence, { deliveredAt: ctx.nowIso, sentAt: attempt.sentAt ?? ctx.nowIso, outcome: "delivered" });
    if (input.status === "failed" && !attempt.failedAt && !attempt.deliveredAt) Object.assign(evidence, { failedAt: ctx.nowIso, outcome: "failed" });
    attempt = { ...attempt, ...evidence };
    await writer(ctx).update(smsGatewayAttempts).set(evidence).where(eq(smsGatewayAttempts.id, attempt.id));

    // The job follows only the attempt that holds it (a cancelled job keeps its state; the attempt keeps the evidence).
    const current = job.leaseId === attempt.leaseId;
    if (current) {
      if (input.status === "sent" && job.state === "leased") {
        job = await moveJob(ctx, job, "sent", null, { sentAt: ctx.nowIso });
      } else if (input.status === "delivered" && ["leased", "sent", "sent_unconfirmed"].includes(job.state)) {
        job = await moveJob(ctx, job, "delivered", null, { sentAt: job.sentAt ?? ctx.nowIso, deliveredAt: ctx.nowIso });
      } else if (input.status === "failed" && job.state === "leased") {
        const failedAttempts = job.failedAttempts + 1;
        const retryable = input.androidResultCode !== undefined && RETRYABLE_ANDROID_RESULTS.has(input.androidResultCode);
        if (!retryable) job = await moveJob(ctx, job, "failed", "provider_failure", { failedAttempts });
        else if (failedAttempts >= MAX_SEND_ATTEMPTS) job = await moveJob(ctx, job, "failed", "retry_exhausted", { failedAttempts });
        else {
          const nextAttemptAt = addSeconds(ctx.nowIso, RETRY_BASE_SECONDS * RETRY_FACTOR ** (failedAttempts - 1));
          job = await moveJob(ctx, job, "retry_wait", "send_failed", { failedAttempts, nextAttemptAt });
        }
      } else if (input.status === "failed" && (job.state === "sent" || job.state === "sent_unconfirmed")) {
        job = await moveJob(ctx, job, "failed", "delivery_failed");
      }
    }
    ctx.deps.log.info("sms receipt", { partnerId: ctx.partnerId, deviceId, jobId, status: input.status, state: job.state });
    return {
      jobId,
      state: job.state,
      code: job.stateCode,
      attempt: {
        leaseId: attempt.leaseId,
        clientMessageId: attempt.clientMessageId,
        outcome: attempt.outcome,
        sentAt: attempt.sentAt,
        deliveredAt: attempt.deliveredAt,
        failedAt: attempt.failedAt,
        androidResultCode: attempt.androidResultCode,
        carrierResultCode: attempt.carrierResultCode,
      },
    };
  });
}
