// The SMS queue's interface to the rest of the service (reminder fan-out,
// SMS verification): enqueue, cancel, and read a job's safe state. Phone numbers
// and texts go in here and come out only to a leasing device (see
// sms-devices.service.ts); nothing this file returns carries either.
import { and, asc, count, eq, gte, inArray, not } from "drizzle-orm";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { smsGatewayDevices, smsGatewayJobs, smsGatewayJobStates, type SmsJobState } from "./sms-gateway.tables.ts";
import { contentDigestOf, encryptPhone, encryptText, payloadDigestOf } from "./sms-gateway.crypto.ts";
import { segmentInfo } from "./sms-segments.ts";
import { FINAL_STATES, moveJob, recordInitialState, type SmsJobRow } from "./sms-gateway.queue.ts";
import {
  DEFAULT_EXPIRY_MS,
  MAX_OPEN_JOBS_PER_PARTNER,
  MAX_OPEN_JOBS_PER_RECIPIENT,
  MAX_SEGMENTS_ANY_DEVICE,
  MAX_TEXT_CHARACTERS,
} from "./sms-gateway.policy.ts";

export type { SmsJobState };
export { sweepSmsQueue } from "./sms-gateway.queue.ts";

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
  cancellationRevision: number;
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
 * the text with the `sms-payload` key. The job starts:
 * - `suppressed` (duplicate_content) for a reminder whose text already went to the
 *   same recipient in the last 24 h under another logical key;
 * - `blocked_policy` (segment_limit) when the text exceeds what any device may send;
 * - `blocked_device_required` (no_active_device) while the partner has no active device;
 * - `expired` when expiresAt has already passed; otherwise `pending`.
 * Full queues are 409 policy_violation with a readable reason.
 */
export async function enqueueSms(ctx: TenantCtx, job: SmsJobInput): Promise<{ jobId: string; state: SmsJobState }> {
  if (!E164_RE.test(job.phoneE164)) rejectInput("phoneE164", "must be an E.164 number (+ and 7 to 15 digits)");
  if (!COUNTRY_RE.test(job.countryCode)) rejectInput("countryCode", "must be an ISO 3166-1 alpha-2 code");
  if (!LOGICAL_KEY_RE.test(job.logicalKey)) rejectInput("logicalKey", "must be 1 to 255 visible ASCII characters");
  if (job.text.length === 0 || [...job.text].length > MAX_TEXT_CHARACTERS) rejectInput("text", `must have 1 to ${MAX_TEXT_CHARACTERS} characters`);
  if (!Number.isInteger(job.cancellationRevision) || job.cancellationRevision < 0) rejectInput("cancellationRevision", "must be a non-negative integer");
  let expiresAt = new Date(ctx.now.getTime() + DEFAULT_EXPIRY_MS).toISOString();
  if (job.expiresAt !== undefined) {
    const t = Date.parse(job.expiresAt);
    if (Number.isNaN(t)) rejectInput("expiresAt", "must be an RFC 3339 instant");
    expiresAt = new Date(t).toISOString();
  }

  return withTx(ctx, async (ctx) => {
    const q = writer(ctx);
    const existing = (await q.select().from(smsGatewayJobs).where(eq(smsGatewayJobs.logicalKey, job.logicalKey)))[0];
    if (existing) return { jobId: existing.id, state: existing.state };

    const open = not(inArray(smsGatewayJobs.state, [...FINAL_STATES]));
    const [partnerOpen] = await q.select({ n: count() }).from(smsGatewayJobs).where(open);
    if ((partnerOpen?.n ?? 0) >= MAX_OPEN_JOBS_PER_PARTNER) {
      throw new AppError("policy_violation", `the partner's SMS queue is full (${MAX_OPEN_JOBS_PER_PARTNER} open jobs); wait for it to drain`);
    }
    const [recipientOpen] = await q
      .select({ n: count() })
      .from(smsGatewayJobs)
      .where(and(eq(smsGatewayJobs.recipientUserId, job.recipientUserId), open));
    if ((recipientOpen?.n ?? 0) >= MAX_OPEN_JOBS_PER_RECIPIENT) {
      throw new AppError("policy_violation", `this recipient already has ${MAX_OPEN_JOBS_PER_RECIPIENT} open SMS jobs; wait for them to finish`);
    }

    const id = ctx.deps.newId();
    const seg = segmentInfo(job.text);
    const contentDigest = contentDigestOf(ctx.deps, job.recipientUserId, job.text);
    let state: SmsJobState = "pending";
    let code: string | null = null;
    if (expiresAt <= ctx.nowIso) [state, code] = ["expired", "job_expired"];
    else if (seg.segments > MAX_SEGMENTS_ANY_DEVICE) [state, code] = ["blocked_policy", "segment_limit"];
    else if (job.purpose === "reminder" && (await sentRecently(ctx, contentDigest))) [state, code] = ["suppressed", "duplicate_content"];
    else if (!(await hasActiveDevice(ctx))) [state, code] = ["blocked_device_required", "no_active_device"];

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
      cancellationRevision: job.cancellationRevision,
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
    return { jobId: id, state };
  });
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

async function hasActiveDevice(ctx: TenantCtx): Promise<boolean> {
  const rows = await db(ctx).select({ id: smsGatewayDevices.id }).from(smsGatewayDevices).where(eq(smsGatewayDevices.state, "active")).limit(1);
  return rows.length > 0;
}

/**
 * Stops a job that has not ended (opt-out, unlink, relink, a replaced deadline):
 * it becomes `cancelled` with the reason as its code, its cancellation revision
 * goes up (a device holding the old one fails its recheck) and its ciphertexts
 * are dropped. A job that already ended is returned unchanged: there is nothing
 * left to stop, and its attempts stay as they were. Unknown job: 404.
 */
export async function cancelSms(ctx: TenantCtx, jobId: string, reason: string): Promise<{ jobId: string; state: SmsJobState }> {
  const code = REASON_RE.test(reason) ? reason : "cancelled";
  return withTx(ctx, async (ctx) => {
    const job = (await writer(ctx).select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, jobId)))[0];
    if (!job) throw notFound("SMS job");
    if (FINAL_STATES.has(job.state)) return { jobId, state: job.state };
    const moved = await moveJob(ctx, job, "cancelled", code, { cancellationRevision: job.cancellationRevision + 1 });
    ctx.deps.log.info("sms job cancelled", { partnerId: ctx.partnerId, jobId, code });
    return { jobId, state: moved.state };
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
