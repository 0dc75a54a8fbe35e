// The SMS gateway's service-owned vault: devices, the job queue, its attempts and
// per-job state history. Only this folder imports these tables (layout rule), so
// no other route or read model can select a ciphertext column; phone numbers and
// texts are encrypted with purpose keys derived from DATA_KEK that only
// sms-gateway.crypto.ts uses.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const SMS_JOB_STATES = [
  "pending",
  "blocked_device_required",
  "blocked_policy",
  "leased",
  "sent",
  "delivered",
  "sent_unconfirmed",
  "retry_wait",
  "failed",
  "cancelled",
  "suppressed",
  "expired",
] as const;
export type SmsJobState = (typeof SMS_JOB_STATES)[number];

export const SMS_PURPOSES = ["verification", "reminder"] as const;
export const SMS_ENCODINGS = ["gsm7", "ucs2"] as const;
export const DEVICE_STATES = ["active", "revoked"] as const;
/** What a binding may be sent now: nothing, its verification code, or reminders and test messages. */
export const BINDING_ACCEPTS = ["nothing", "verification", "reminders"] as const;
export type BindingAccepts = (typeof BINDING_ACCEPTS)[number];
export const ATTEMPT_OUTCOMES = ["leased", "lease_expired", "sending", "sent", "delivered", "failed", "sent_unconfirmed", "abandoned"] as const;

/** An online phone that sends the partner's SMS; its native token is kept as an HMAC digest only. */
export const smsGatewayDevices = sqliteTable(
  "sms_gateway_devices",
  {
    id: text("id").primaryKey(),
    /** The project whose planning_admin issued the device's first token. */
    projectId: text("project_id").notNull(),
    state: text("state", { enum: DEVICE_STATES }).notNull(),
    /** HMAC digest of the current native token; null once revoked. */
    tokenDigest: text("token_digest"),
    tokenRevision: integer("token_revision").notNull(),
    tokenIssuedAt: text("token_issued_at"),
    /** JSON array of ISO 3166-1 alpha-2 codes; empty means "the SIM's own country only". */
    allowedCountries: text("allowed_countries").notNull(),
    maxSegmentsPerMessage: integer("max_segments_per_message").notNull(),
    dailySegmentCeiling: integer("daily_segment_ceiling").notNull(),
    sendsPerMinute: integer("sends_per_minute").notNull(),
    // Last heartbeat, as the device reported it.
    lastHeartbeatAt: text("last_heartbeat_at"),
    online: integer("online", { mode: "boolean" }).notNull(),
    batteryPercent: integer("battery_percent"),
    charging: integer("charging", { mode: "boolean" }),
    /** JSON: { sendSms, readPhoneState, postNotifications } as granted on the device. */
    permissions: text("permissions").notNull(),
    /** JSON array of { slot, country, state, verified, roaming, carrier? }. */
    sims: text("sims").notNull(),
    version: integer("version").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("sms_gateway_devices_state_idx").on(t.state)],
);

/**
 * The gateway's copy of one personal SMS binding (its id is the binding's id in
 * the notifications module), written in the same transaction as every change of
 * the binding. `identityVersion` changes exactly when the destination identity
 * does (a new number); `cancellationRevision` on every cancelling event (opt-out,
 * unlink, relink, revocation). Lease and recheck compare a job's copies of both
 * and the purpose it may be sent for with these current values.
 */
export const smsGatewayBindings = sqliteTable("sms_gateway_bindings", {
  id: text("id").primaryKey(),
  projectId: text("project_id").notNull(),
  recipientUserId: text("recipient_user_id").notNull(),
  identityVersion: integer("identity_version").notNull(),
  cancellationRevision: integer("cancellation_revision").notNull(),
  accepts: text("accepts", { enum: BINDING_ACCEPTS }).notNull(),
  /** Safe code of the last cancelling event. */
  reason: text("reason"),
  version: integer("version").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** One queued SMS to one recipient; phone and text are ciphertext and leave the vault only in a device lease. */
export const smsGatewayJobs = sqliteTable(
  "sms_gateway_jobs",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    recipientUserId: text("recipient_user_id").notNull(),
    /** The caller's idempotency key: one job per logical key. */
    logicalKey: text("logical_key").notNull(),
    purpose: text("purpose", { enum: SMS_PURPOSES }).notNull(),
    state: text("state", { enum: SMS_JOB_STATES }).notNull(),
    /** Safe reason code of the current state (never provider text). */
    stateCode: text("state_code"),
    /** Phone number, AES-GCM under the `phone` purpose key; null once terminal. */
    phoneCiphertext: text("phone_ciphertext"),
    /** Message text, AES-GCM under the `sms-payload` purpose key; null once terminal. */
    textCiphertext: text("text_ciphertext"),
    /** HMAC (sms-payload key) of phone and text: what the device confirms at recheck, and all that remains of the text once terminal. */
    payloadDigest: text("payload_digest").notNull(),
    /** HMAC of the recipient and text (no phone): finds a duplicate reminder under another logical key. */
    contentDigest: text("content_digest").notNull(),
    countryCode: text("country_code").notNull(),
    encoding: text("encoding", { enum: SMS_ENCODINGS }).notNull(),
    segments: integer("segments").notNull(),
    characters: integer("characters").notNull(),
    /** The binding the SMS goes to (null only on jobs queued before bindings were recorded: never sent). */
    bindingId: text("binding_id"),
    /** The binding's identity version when queued: a job never goes to a later identity. */
    identityVersion: integer("identity_version").notNull().default(0),
    /** The binding's cancellation revision when queued (raised on the job when it is cancelled). */
    cancellationRevision: integer("cancellation_revision").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** Send attempts that ended in a retryable failure. */
    failedAttempts: integer("failed_attempts").notNull(),
    /** Leases that expired unconfirmed (the job went back to the queue). */
    expiredLeases: integer("expired_leases").notNull(),
    nextAttemptAt: text("next_attempt_at"),
    leaseId: text("lease_id"),
    leasedDeviceId: text("leased_device_id"),
    leaseExpiresAt: text("lease_expires_at"),
    /** Set by the device's recheck: from here on the job is never handed out again. */
    leaseConfirmedAt: text("lease_confirmed_at"),
    sentAt: text("sent_at"),
    deliveredAt: text("delivered_at"),
    terminalAt: text("terminal_at"),
    version: integer("version").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("sms_gateway_jobs_logical_key_idx").on(t.logicalKey),
    index("sms_gateway_jobs_queue_idx").on(t.state, t.createdAt),
    index("sms_gateway_jobs_lease_idx").on(t.state, t.leaseExpiresAt),
    index("sms_gateway_jobs_content_idx").on(t.contentDigest, t.state),
    index("sms_gateway_jobs_binding_idx").on(t.bindingId, t.state),
  ],
);

/** Every state a job entered, with its time and safe code: the per-recipient timeline. */
export const smsGatewayJobStates = sqliteTable(
  "sms_gateway_job_states",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => smsGatewayJobs.id),
    state: text("state", { enum: SMS_JOB_STATES }).notNull(),
    code: text("code"),
    at: text("at").notNull(),
    actor: text("actor").notNull(),
  },
  (t) => [index("sms_gateway_job_states_job_idx").on(t.jobId, t.at)],
);

/** One lease of a job to a device and what the device reported about it (channel evidence only). */
export const smsGatewayAttempts = sqliteTable(
  "sms_gateway_attempts",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => smsGatewayJobs.id),
    deviceId: text("device_id")
      .notNull()
      .references(() => smsGatewayDevices.id),
    /** The lease id handed to the device. */
    leaseId: text("lease_id").notNull(),
    outcome: text("outcome", { enum: ATTEMPT_OUTCOMES }).notNull(),
    segments: integer("segments").notNull(),
    leasedAt: text("leased_at").notNull(),
    leaseExpiresAt: text("lease_expires_at").notNull(),
    recheckedAt: text("rechecked_at"),
    /** The device's id for the message: idempotency key of receipts, unique per device. */
    clientMessageId: text("client_message_id"),
    sentAt: text("sent_at"),
    deliveredAt: text("delivered_at"),
    failedAt: text("failed_at"),
    /** Raw Android SmsManager result code and carrier (TP-Status / error) code, as reported. */
    androidResultCode: integer("android_result_code"),
    carrierResultCode: text("carrier_result_code"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("sms_gateway_attempts_lease_idx").on(t.leaseId),
    uniqueIndex("sms_gateway_attempts_client_msg_idx").on(t.deviceId, t.clientMessageId),
    index("sms_gateway_attempts_device_idx").on(t.deviceId, t.leasedAt),
    index("sms_gateway_attempts_leased_idx").on(t.leasedAt),
    index("sms_gateway_attempts_job_idx").on(t.jobId, t.leasedAt),
  ],
);
