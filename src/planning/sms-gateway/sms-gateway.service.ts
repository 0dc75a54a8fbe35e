// The SMS queue's interface to the rest of the service (reminder fan-out,
// SMS verification): enqueue, cancel, and read a job's safe state. Phone numbers
// and texts go in here and come out only to a leasing device (see
// sms-devices.service.ts); nothing this file returns carries either.
import { and, asc, count, desc, eq, gte, inArray, not } from "drizzle-orm";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { smsGatewayBindings, smsGatewayDevices, smsGatewayJobs, smsGatewayJobStates, type BindingAccepts, type SmsJobState } from "./sms-gateway.tables.ts";
import { contentDigestOf, encryptPhone, encryptText, payloadDigestOf } from "./sms-gateway.crypto.ts";
import { segmentInfo } from "./sms-segments.ts";
import { CANCELLABLE_STATES, FINAL_STATES, bindingAllows, cancelJob, recordInitialState, type SmsBindingRow, type SmsJobRow } from "./sms-gateway.queue.ts";
import { countriesOf, eligibility } from "./sms-gateway.eligibility.ts";
import {
  DEFAULT_EXPIRY_MS,
  MAX_OPEN_JOBS_PER_PARTNER,
  MAX_OPEN_JOBS_PER_RECIPIENT,
  MAX_SEGMENTS_ANY_DEVICE,
  MAX_TEXT_CHARACTERS,
} from "./sms-gateway.policy.ts";

export type { SmsJobState, BindingAccepts };
export { smsSweepDueAt, sweepSmsQueue } from "./sms-gateway.queue.ts";

export interface SmsJobInput {
  projectId: string;
  recipientUserId: string;
  /** E.164, e.g. +4915112345678. */
  phoneE164: string;
  /** ISO 3166-1 alpha-2 country of the number (checked against each device's allowlist). */
  countryCode: string;
  text: string;
  purpose: "verification" | "reminder";
  /** One job per logical key: enqueueing the same key again returns the first job. */
  logicalKey: string;
  /** The binding the SMS goes to (registered with setSmsBinding); the job takes its current cancellation revision. */
  bindingId: string;
  /** The binding identity the caller means; a job for an identity that is no longer the binding's is never sent. */
  identityVersion: number;
  /** Server-enforced deadline; default 24 h after enqueueing (contract §12). */
  expiresAt?: string;
}

export interface SmsJobStateView {
  jobId: string;
  state: SmsJobState;
  /** Safe reason code of the current state (e.g. sim_roaming, country_not_allowed, lease_expired). */
  code: string | null;
  purpose: "verification" | "reminder";
  encoding: "gsm7" | "ucs2";
  segments: number;
  identityVersion: number;
  cancellationRevision: number;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  terminalAt: string | null;
  /** Every state the job entered, oldest first. */
  history: Array<{ state: SmsJobState; code: string | null; at: string }>;
}

const E164_RE = /^\+[1-9]\d{6,14}$/;
const COUNTRY_RE = /^[A-Z]{2}$/;
const LOGICAL_KEY_RE = /^[\x21-\x7e]{1,255}$/;
const REASON_RE = /^[a-z][a-z0-9_]{0,39}$/;
const DUPLICATE_WINDOW_MS = 24 * 3600 * 1000;

function rejectInput(field: string, message: string): never {
  // The value itself is never echoed: it may be a phone number.
  throw new AppError("validation_failed", `${field}: ${message}`, { errors: [{ path: `/${field}`, message }] });
}

/**
 * Queues one SMS. Idempotent per logicalKey (the first job is returned, whatever
 * the new input). The phone number is encrypted with the `phone` purpose key and
 * the text with the `sms-payload` key. The job carries the binding's identity
 * version and current cancellation revision. It starts:
 * - `cancelled` (binding_changed) when the binding does not accept it now (another
 *   identity, a withdrawn consent, no verification in progress);
 * - `expired` (job_expired) when expiresAt has already passed;
 * - `blocked_policy` (segment_limit) when the text exceeds what any device may send;
 * - `suppressed` (duplicate_content) for a reminder whose text already went to the
 *   same recipient in the last 24 h under another logical key;
 * - `blocked_device_required` when no device of the partner could take it now
 *   (no_active_device, or the reason of the freshest device: device_offline,
 *   sim_roaming, permission_missing, no_active_sim, sim_unverified);
 * - `blocked_policy` (country_not_allowed, segment_limit) when no eligible
 *   device's policy allows it; otherwise `pending`.
 * The answer is that disposition. Full queues are 409 policy_violation with a readable reason.
 */
export async function enqueueSms(ctx: TenantCtx, job: SmsJobInput): Promise<{ jobId: string; state: SmsJobState; code: string | null }> {
  const expiresAt = checkedExpiry(ctx, job);
  return withTx(ctx, async (ctx) => {
    const q = writer(ctx);
    const existing = (await q.select().from(smsGatewayJobs).where(eq(smsGatewayJobs.logicalKey, job.logicalKey)))[0];
    if (existing) return { jobId: existing.id, state: existing.state, code: existing.stateCode };
    await assertQueueRoom(ctx, job.recipientUserId);

    const id = ctx.deps.newId();
    const seg = segmentInfo(job.text);
    const contentDigest = contentDigestOf(ctx.deps, job.recipientUserId, job.text);
    const binding = (await q.select().from(smsGatewayBindings).where(eq(smsGatewayBindings.id, job.bindingId)))[0];
    const stamp = { bindingId: job.bindingId, identityVersion: job.identityVersion, cancellationRevision: binding?.cancellationRevision ?? 0, purpose: job.purpose };
    let state: SmsJobState = "pending";
    let code: string | null = null;
    if (!(await bindingAllows(ctx, stamp, new Map([[job.bindingId, binding ?? null]])))) [state, code] = ["cancelled", "binding_changed"];
    else if (expiresAt <= ctx.nowIso) [state, code] = ["expired", "job_expired"];
    else if (seg.segments > MAX_SEGMENTS_ANY_DEVICE) [state, code] = ["blocked_policy", "segment_limit"];
    else if (job.purpose === "reminder" && (await sentRecently(ctx, contentDigest))) [state, code] = ["suppressed", "duplicate_content"];
    else [state, code] = await deviceVerdict(ctx, job.countryCode, seg.segments);

    const keep = !FINAL_STATES.has(state);
    const row: SmsJobRow = {
      id,
      projectId: job.projectId,
      recipientUserId: job.recipientUserId,
      logicalKey: job.logicalKey,
      purpose: job.purpose,
      state,
      stateCode: code,
      phoneCiphertext: keep ? encryptPhone(ctx.deps, id, job.phoneE164) : null,
      textCiphertext: keep ? encryptText(ctx.deps, id, job.text) : null,
      payloadDigest: payloadDigestOf(ctx.deps, job.phoneE164, job.text),
      contentDigest,
      countryCode: job.countryCode,
      encoding: seg.encoding,
      segments: seg.segments,
      characters: seg.characters,
      bindingId: job.bindingId,
      identityVersion: job.identityVersion,
      cancellationRevision: stamp.cancellationRevision,
      expiresAt,
      failedAttempts: 0,
      expiredLeases: 0,
      nextAttemptAt: null,
      leaseId: null,
      leasedDeviceId: null,
      leaseExpiresAt: null,
      leaseConfirmedAt: null,
      sentAt: null,
      deliveredAt: null,
      terminalAt: keep ? null : ctx.nowIso,
      version: 1,
      createdAt: ctx.nowIso,
      updatedAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await q.insert(smsGatewayJobs).values(row);
    await recordInitialState(ctx, row);
    ctx.deps.log.info("sms job queued", { partnerId: ctx.partnerId, jobId: id, state, code, segments: seg.segments, encoding: seg.encoding });
    return { jobId: id, state, code };
  });
}

/** The input checked (never echoing a value: it may be a phone number); its expiry, 24 h from now unless it gives one. */
function checkedExpiry(ctx: TenantCtx, job: SmsJobInput): string {
  if (!E164_RE.test(job.phoneE164)) rejectInput("phoneE164", "must be an E.164 number (+ and 7 to 15 digits)");
  if (!COUNTRY_RE.test(job.countryCode)) rejectInput("countryCode", "must be an ISO 3166-1 alpha-2 code");
  if (!LOGICAL_KEY_RE.test(job.logicalKey)) rejectInput("logicalKey", "must be 1 to 255 visible ASCII characters");
  if (job.text.length === 0 || [...job.text].length > MAX_TEXT_CHARACTERS) rejectInput("text", `must have 1 to ${MAX_TEXT_CHARACTERS} characters`);
  if (!Number.isInteger(job.identityVersion) || job.identityVersion < 0) rejectInput("identityVersion", "must be a non-negative integer");
  if (job.expiresAt === undefined) return new Date(ctx.now.getTime() + DEFAULT_EXPIRY_MS).toISOString();
  const t = Date.parse(job.expiresAt);
  if (Number.isNaN(t)) rejectInput("expiresAt", "must be an RFC 3339 instant");
  return new Date(t).toISOString();
}

/** Full queues refuse a new job: the partner's, and the recipient's. */
async function assertQueueRoom(ctx: TenantCtx, recipientUserId: string): Promise<void> {
  const open = not(inArray(smsGatewayJobs.state, [...FINAL_STATES]));
  const [partnerOpen] = await writer(ctx).select({ n: count() }).from(smsGatewayJobs).where(open);
  if ((partnerOpen?.n ?? 0) >= MAX_OPEN_JOBS_PER_PARTNER) {
    throw new AppError("policy_violation", `the partner's SMS queue is full (${MAX_OPEN_JOBS_PER_PARTNER} open jobs); wait for it to drain`);
  }
  const [recipientOpen] = await writer(ctx)
    .select({ n: count() })
    .from(smsGatewayJobs)
    .where(and(eq(smsGatewayJobs.recipientUserId, recipientUserId), open));
  if ((recipientOpen?.n ?? 0) >= MAX_OPEN_JOBS_PER_RECIPIENT) {
    throw new AppError("policy_violation", `this recipient already has ${MAX_OPEN_JOBS_PER_RECIPIENT} open SMS jobs; wait for them to finish`);
  }
}

async function sentRecently(ctx: TenantCtx, contentDigest: string): Promise<boolean> {
  const since = new Date(ctx.now.getTime() - DUPLICATE_WINDOW_MS).toISOString();
  const rows = await db(ctx)
    .select({ id: smsGatewayJobs.id })
    .from(smsGatewayJobs)
    .where(
      and(
        eq(smsGatewayJobs.contentDigest, contentDigest),
        inArray(smsGatewayJobs.state, ["sent", "delivered", "sent_unconfirmed"]),
        gte(smsGatewayJobs.sentAt, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Where a new job stands with the partner's devices now: `pending` when an
 * eligible device's policy allows its country and segments; `blocked_policy`
 * when eligible devices exist but none allows it; `blocked_device_required` when
 * none is eligible, with the reason of the device heard from last (a heartbeat
 * of an eligible device releases it, a lease re-evaluates a policy block).
 */
async function deviceVerdict(ctx: TenantCtx, countryCode: string, segments: number): Promise<[SmsJobState, string | null]> {
  const devices = await db(ctx)
    .select()
    .from(smsGatewayDevices)
    .where(eq(smsGatewayDevices.state, "active"))
    .orderBy(desc(smsGatewayDevices.lastHeartbeatAt), asc(smsGatewayDevices.id));
  if (devices.length === 0) return ["blocked_device_required", "no_active_device"];
  const checked = devices.map((d) => ({ d, e: eligibility(ctx, d) }));
  const eligible = checked.flatMap(({ d, e }) => (e.code === null ? [{ d, countries: countriesOf(d, e.sim) }] : []));
  if (eligible.length === 0) return ["blocked_device_required", checked[0]!.e.code];
  const inCountry = eligible.filter((x) => x.countries.includes(countryCode));
  if (inCountry.length === 0) return ["blocked_policy", "country_not_allowed"];
  if (!inCountry.some((x) => segments <= x.d.maxSegmentsPerMessage)) return ["blocked_policy", "segment_limit"];
  return ["pending", null];
}

/**
 * Stops one job that is still queued or leased (a superseded verification code,
 * a cancelled reminder): it becomes `cancelled` with the reason as its code, its
 * cancellation revision goes up (a device holding the old one fails its recheck)
 * and its ciphertexts are dropped. A job already sent or ended is returned
 * unchanged: a sent message cannot be called back, and its attempts stay as they
 * were. Unknown job: 404.
 */
export async function cancelSms(ctx: TenantCtx, jobId: string, reason: string): Promise<{ jobId: string; state: SmsJobState }> {
  const code = REASON_RE.test(reason) ? reason : "cancelled";
  return withTx(ctx, async (ctx) => {
    const job = (await writer(ctx).select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, jobId)))[0];
    if (!job) throw notFound("SMS job");
    if (!CANCELLABLE_STATES.has(job.state)) return { jobId, state: job.state };
    const moved = await cancelJob(ctx, job, code);
    return { jobId, state: moved.state };
  });
}

export interface SmsBindingInput {
  /** The binding's id in the calling module. */
  bindingId: string;
  projectId: string;
  recipientUserId: string;
  /** Changes exactly when the destination identity (the number) changes. */
  identityVersion: number;
  /** What may be sent to the binding from now on. */
  accepts: BindingAccepts;
  /**
   * A cancelling event (opted_out, unlinked, relinked, revoked…, `[a-z0-9_]`):
   * the cancellation revision goes up and every queued or leased job of the
   * binding is cancelled with this code. A new identity version is always one
   * (`relinked` when no reason is given).
   */
  cancel?: string;
}

/**
 * Records a change of a personal SMS binding, in the caller's transaction (every
 * change of the binding calls this, so the gateway's copy never lags). On a
 * cancelling event the binding's cancellation revision is raised and every job of
 * the binding that is queued (pending, blocked_*, retry_wait) or leased and not
 * yet reported sent is cancelled — tests and verification codes included — with
 * the event's code in each job's timeline. Jobs already sent keep their state.
 * Lease and recheck compare each job with these values, so a job whose binding
 * changed in any other way is never leased or confirmed either.
 */
export async function setSmsBinding(ctx: TenantCtx, input: SmsBindingInput): Promise<{ identityVersion: number; cancellationRevision: number; cancelled: number }> {
  if (input.cancel !== undefined && !REASON_RE.test(input.cancel)) rejectInput("cancel", "must be a safe code ([a-z][a-z0-9_]*)");
  return withTx(ctx, async (ctx) => {
    const q = writer(ctx);
    const current = (await q.select().from(smsGatewayBindings).where(eq(smsGatewayBindings.id, input.bindingId)))[0];
    const identityChanged = current !== undefined && current.identityVersion !== input.identityVersion;
    const reason = input.cancel ?? (identityChanged ? "relinked" : undefined);
    const revision = (current?.cancellationRevision ?? 0) + (current && reason ? 1 : 0);
    const row: SmsBindingRow = {
      id: input.bindingId,
      projectId: input.projectId,
      recipientUserId: input.recipientUserId,
      identityVersion: input.identityVersion,
      cancellationRevision: revision,
      accepts: input.accepts,
      reason: reason ?? current?.reason ?? null,
      version: (current?.version ?? 0) + 1,
      createdAt: current?.createdAt ?? ctx.nowIso,
      updatedAt: ctx.nowIso,
    };
    if (current) {
      const { id, createdAt, ...changes } = row;
      void createdAt;
      await q.update(smsGatewayBindings).set(changes).where(eq(smsGatewayBindings.id, id));
    } else {
      await q.insert(smsGatewayBindings).values(row);
    }
    let cancelled = 0;
    if (reason) {
      const open = await q
        .select()
        .from(smsGatewayJobs)
        .where(and(eq(smsGatewayJobs.bindingId, input.bindingId), inArray(smsGatewayJobs.state, [...CANCELLABLE_STATES])));
      for (const job of open) await cancelJob(ctx, job, reason, revision);
      cancelled = open.length;
      ctx.deps.log.info("sms binding cancelled its jobs", { partnerId: ctx.partnerId, bindingId: input.bindingId, code: reason, cancellationRevision: revision, cancelled });
    }
    return { identityVersion: row.identityVersion, cancellationRevision: revision, cancelled };
  });
}

/** A job's state, safe code, timestamps and timeline; never its phone number or text. Unknown job: 404. */
export async function smsJobState(ctx: TenantCtx, jobId: string): Promise<SmsJobStateView> {
  const [jobs, history] = await readSnapshot(ctx, (q) => [
    q.select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, jobId)),
    q
      .select()
      .from(smsGatewayJobStates)
      .where(eq(smsGatewayJobStates.jobId, jobId))
      .orderBy(asc(smsGatewayJobStates.at), asc(smsGatewayJobStates.id)),
  ] as const);
  const job = jobs[0];
  if (!job) throw notFound("SMS job");
  return {
    jobId: job.id,
    state: job.state,
    code: job.stateCode,
    purpose: job.purpose,
    encoding: job.encoding,
    segments: job.segments,
    identityVersion: job.identityVersion,
    cancellationRevision: job.cancellationRevision,
    expiresAt: job.expiresAt,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    sentAt: job.sentAt,
    deliveredAt: job.deliveredAt,
    terminalAt: job.terminalAt,
    history: history.map((h) => ({ state: h.state, code: h.code, at: h.at })),
  };
}
