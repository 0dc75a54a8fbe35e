// The notification vault and the delivery trail. Every table here is service-owned:
// only this folder's services read or write them (the layout test keeps *.tables.ts
// imports inside the folder), so no route handler elsewhere can reach a personal
// contact, a challenge digest or a locator ciphertext. Secrets never sit here in
// clear: locators are AES-GCM under HKDF purpose keys, codes are HMAC digests.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";

export const PERSONAL_CHANNELS = ["email", "messenger_a_dm", "messenger_b_dm", "sms"] as const;
export type PersonalChannel = (typeof PERSONAL_CHANNELS)[number];
export const OPTIONAL_CHANNELS = ["messenger_a_dm", "messenger_b_dm", "sms"] as const;
export type OptionalChannel = (typeof OPTIONAL_CHANNELS)[number];

export const READINESS = ["unlinked", "pending", "ready", "blocked", "revoked", "error"] as const;
export type Readiness = (typeof READINESS)[number];
export const SMS_VERIFICATION = ["unverified", "pending", "verified", "expired", "revoked", "blocked"] as const;
export type SmsVerification = (typeof SMS_VERIFICATION)[number];
export const SMS_CONSENT = ["not_granted", "granted", "withdrawn"] as const;
export type SmsConsent = (typeof SMS_CONSENT)[number];

/**
 * One user's binding of one optional channel in one project (the personal vault).
 * `identityVersion` grows with every link or SMS start, so a relinked identity
 * never inherits reminder rows of the one before.
 */
export const planningChannelBindings = sqliteTable(
  "planning_channel_bindings",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    userId: text("user_id").notNull(),
    channel: text("channel", { enum: OPTIONAL_CHANNELS }).notNull(),
    readiness: text("readiness", { enum: READINESS }).notNull(),
    /** A safe reason code for blocked, revoked and error. */
    reason: text("reason"),
    identityVersion: integer("identity_version").notNull().default(0),
    /** Chat id, DM channel id or E.164 number, encrypted under the channel's purpose key (aad: binding id). */
    locatorCipher: text("locator_cipher"),
    locatorMask: text("locator_mask"),
    countryCode: text("country_code"),
    /** HMAC digest of the open one-time code (link code or SMS verification code). */
    challengeDigest: text("challenge_digest"),
    challengeExpiresAt: text("challenge_expires_at"),
    challengeAttempts: integer("challenge_attempts").notNull().default(0),
    /** Codes sent for the current identity (SMS start + resends), and when the last one went. */
    challengeSends: integer("challenge_sends").notNull().default(0),
    challengeSentAt: text("challenge_sent_at"),
    /** The gateway job carrying the open SMS verification code. */
    challengeSmsJobId: text("challenge_sms_job_id"),
    smsVerification: text("sms_verification", { enum: SMS_VERIFICATION }),
    smsConsent: text("sms_consent", { enum: SMS_CONSENT }),
    consentAt: text("consent_at"),
    /** The explicit project preference: deliver this project's reminders on this channel. */
    reminders: integer("reminders", { mode: "boolean" }).notNull().default(false),
    linkedAt: text("linked_at"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("planning_channel_bindings_uq").on(t.projectId, t.userId, t.channel), index("planning_channel_bindings_ready_idx").on(t.projectId, t.readiness)],
);

export const DESTINATION_KINDS = ["email", "messenger_a_group", "messenger_b_channel"] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** A project-level delivery target (team mailbox, messenger group): write-only, the target stored encrypted. */
export const planningDestinations = sqliteTable(
  "planning_destinations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    kind: text("kind", { enum: DESTINATION_KINDS }).notNull(),
    name: text("name").notNull(),
    targetCipher: text("target_cipher").notNull(),
    targetMask: text("target_mask").notNull(),
    lastTestAt: text("last_test_at"),
    lastTestDisposition: text("last_test_disposition"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("planning_destinations_project_idx").on(t.projectId, t.updatedAt, t.id)],
);

export const DELIVERY_STATES = ["scheduled", "dispatched", "cancelled"] as const;

/**
 * One logical personal reminder: (canonical reminder, occurrence of a recurring
 * meeting, due time, recipient, channel, identity version). The logical key is
 * unique, so fan-out is idempotent and a retry can never make a second one.
 */
export const planningReminderDeliveries = sqliteTable(
  "planning_reminder_deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    reminderId: text("reminder_id").notNull(),
    recipientUserId: text("recipient_user_id").notNull(),
    channel: text("channel", { enum: PERSONAL_CHANNELS }).notNull(),
    identityVersion: integer("identity_version").notNull(),
    logicalKey: text("logical_key").notNull(),
    /** For a reminder relative to a recurring meeting: the occurrence it is before (its original start, the RECURRENCE-ID); null otherwise. */
    occurrenceAt: text("occurrence_at"),
    dueAt: text("due_at").notNull(),
    state: text("state", { enum: DELIVERY_STATES }).notNull(),
    cancelReason: text("cancel_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("planning_reminder_deliveries_key_uq").on(t.logicalKey),
    index("planning_reminder_deliveries_due_idx").on(t.state, t.dueAt),
    index("planning_reminder_deliveries_reminder_idx").on(t.reminderId, t.state),
    index("planning_reminder_deliveries_recipient_idx").on(t.projectId, t.recipientUserId, t.channel, t.state),
  ],
);

export const OUTBOX_STATES = ["pending", "queued", "sent", "delivered", "unconfirmed", "failed", "cancelled"] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/**
 * One send attempt. Terminal attempts (sent, delivered, failed, cancelled) never
 * change again; a retry is a new attempt of the same logical reminder.
 */
export const planningNotificationOutbox = sqliteTable(
  "planning_notification_outbox",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => planningReminderDeliveries.id),
    /** Copied from the logical reminder, so history reads one table. */
    reminderId: text("reminder_id").notNull(),
    dueAt: text("due_at").notNull(),
    recipientUserId: text("recipient_user_id").notNull(),
    channel: text("channel", { enum: PERSONAL_CHANNELS }).notNull(),
    attemptNo: integer("attempt_no").notNull(),
    state: text("state", { enum: OUTBOX_STATES }).notNull(),
    /** Safe disposition code; never provider text. */
    disposition: text("disposition"),
    destinationMask: text("destination_mask"),
    smsJobId: text("sms_job_id"),
    /** The attempt this one retries. */
    retryOf: text("retry_of"),
    recordedAt: text("recorded_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    completedAt: text("completed_at"),
  },
  (t) => [
    index("planning_notification_outbox_page_idx").on(t.projectId, t.recordedAt, t.id),
    index("planning_notification_outbox_channel_page_idx").on(t.projectId, t.channel, t.recordedAt, t.id),
    index("planning_notification_outbox_state_page_idx").on(t.projectId, t.state, t.recordedAt, t.id),
    index("planning_notification_outbox_recipient_page_idx").on(t.projectId, t.recipientUserId, t.recordedAt, t.id),
    index("planning_notification_outbox_work_idx").on(t.state, t.recordedAt),
    index("planning_notification_outbox_delivery_idx").on(t.deliveryId, t.attemptNo),
    index("planning_notification_outbox_retry_idx").on(t.retryOf),
  ],
);
