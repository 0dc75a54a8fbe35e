import { z } from "@hono/zod-openapi";
import { Id, Timestamp, freeText, orNull } from "../../platform/http/common-schemas.ts";
import { PageQueryShape, csvEnum, listEnvelope } from "../../platform/paging/paging.ts";
import { DESTINATION_KINDS, OUTBOX_STATES, PERSONAL_CHANNELS, READINESS, SMS_CONSENT, SMS_VERIFICATION } from "./notifications.tables.ts";

// ---------------------------------------------------------------- personal channels

export const CHANNEL_ACTIONS = ["link", "verify", "test", "unlink", "start", "resend", "opt-out", "consent", "preference"] as const;
export type ChannelAction = (typeof CHANNEL_ACTIONS)[number];

export const ProjectOnlyParams = z.strictObject({ projectId: Id });
export const ChannelActionParams = z.strictObject({
  projectId: Id,
  channel: z.enum(PERSONAL_CHANNELS).openapi({ description: "`email` (the baseline: no actions), `messenger_a_dm`, `messenger_b_dm`, `sms`" }),
  action: z.enum(CHANNEL_ACTIONS).openapi({
    description:
      "messenger_a_dm and messenger_b_dm: link, verify, test, unlink, preference. sms: start, resend, verify, consent, test, opt-out, unlink, preference. " +
      "`consent` and `preference` go beyond the spec's list: the spec requires explicit consent and an explicit project preference but names no action for them.",
  }),
});

export const ChannelActionBody = z
  .strictObject({
    code: z.string().trim().min(4).max(32).regex(/^[A-Za-z0-9]+$/).optional().openapi({ description: "verify: the one-time code (link code or SMS code)" }),
    accountId: z
      .string()
      .regex(/^[0-9]{15,22}$/)
      .optional()
      .openapi({ description: "messenger_b_dm link: the user's account id (a snowflake) the bot opens a direct message with" }),
    phoneNumber: z.string().regex(/^\+[1-9][0-9]{6,14}$/).optional().openapi({ description: "sms start: the number in E.164; never returned" }),
    countryCode: z.string().regex(/^[A-Z]{2}$/).optional().openapi({ description: "sms start: ISO 3166-1 alpha-2, on the SMS country allowlist" }),
    reminders: z.boolean().optional().openapi({ description: "preference: deliver this project's reminders on this channel" }),
  })
  .openapi("ChannelActionBody");

const SmsState = z
  .object({
    verification: z.enum(SMS_VERIFICATION),
    consent: z.enum(SMS_CONSENT),
    countryCode: z.string().nullable(),
    attemptsLeft: z.number().int().nullable(),
    codeExpiresAt: Timestamp.nullable(),
    consentAt: Timestamp.nullable(),
  })
  .openapi("SmsChannelState");

export const PersonalChannelView = z
  .object({
    channel: z.enum(PERSONAL_CHANNELS),
    readiness: z.enum(READINESS),
    reason: z.string().nullable().openapi({ description: "Safe code explaining a state other than ready" }),
    destination: z.string().nullable().openapi({ description: "Masked destination; never the number, address or locator itself" }),
    identityVersion: z.number().int(),
    reminders: z.boolean().openapi({ description: "The explicit project preference (always true for email, the mandatory baseline)" }),
    linkedAt: Timestamp.nullable(),
    sms: orNull(SmsState),
  })
  .openapi("PersonalChannel");

export const MyReminderChannels = z
  .object({ projectId: z.string(), userId: z.string(), channels: z.array(PersonalChannelView) })
  .openapi("MyReminderChannels");

export const ChannelActionResult = z
  .object({
    channel: PersonalChannelView,
    link: z
      .object({ code: z.string(), deepLink: z.string().nullable(), expiresAt: Timestamp })
      .nullable()
      .openapi({ description: "messenger_a_dm link: the one-time code (shown once) and the bot's deep link" }),
    test: z
      .object({
        disposition: z.string().openapi({
          description:
            "messenger_a_dm / messenger_b_dm: `sent`, or the provider's safe failure code (destination_unavailable, provider_failure, rate_limited, provider_unconfigured). " +
            "sms: the gateway job's state right after enqueueing: `queued` (waiting for a device's lease), `blocked_device_required` (no eligible online device or SIM), `blocked_policy` (no eligible device's country or segment policy allows it), `suppressed` (the same text reached this user in the last 24 h), `expired`, `cancelled`; a repeated call within the same millisecond answers the same job's current state (`leased`, `sent`, `delivered`, `sent_unconfirmed`, `retry_wait`, `failed`).",
        }),
        code: z.string().nullable().openapi({
          description:
            "sms: the job's stable safe code for that disposition (no_active_device, device_offline, sim_roaming, permission_missing, no_active_sim, sim_unverified, country_not_allowed, segment_limit, duplicate_content, job_expired, lease_expired, binding_changed); null when plainly queued, and for messengers",
        }),
      })
      .nullable(),
  })
  .openapi("ChannelActionResult");

// ---------------------------------------------------------------- destinations

export const DestinationParams = z.strictObject({ projectId: Id, destinationId: Id });

export const CreateDestination = z
  .strictObject({
    kind: z.enum(DESTINATION_KINDS).openapi({ description: "`email` (a team mailbox), `messenger_a_group` (a group chat id), `messenger_b_channel` (a channel id)" }),
    name: freeText(200),
    target: z.string().trim().min(1).max(320).openapi({ description: "The address, chat id or channel id; write-only (only a masked form is ever returned)" }),
  })
  .openapi("CreateDestination");

export const Destination = z
  .object({
    id: z.string(),
    projectId: z.string(),
    kind: z.enum(DESTINATION_KINDS),
    name: z.string(),
    target: z.string().openapi({ description: "Masked" }),
    lastTestAt: Timestamp.nullable(),
    lastTestDisposition: z.string().nullable().openapi({
      description:
        "Outcome of the last test message (null before the first). email: `sent`, `destination_unavailable` (the relay refused the mailbox: 5xx to RCPT TO), " +
        "`provider_failure` (the relay could not take it: unreachable or silent past the timeouts, no STARTTLS or an unverified certificate while SMTP_URL carries credentials, " +
        "credentials refused, a 4xx reply, another 5xx), `provider_unconfigured` (no SMTP_URL). Messenger kinds: `sent` or destination_unavailable, provider_failure, rate_limited, provider_unconfigured.",
    }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("Destination");

// ---------------------------------------------------------------- outbox and history

export const OutboxParams = z.strictObject({ projectId: Id, outboxId: Id });

export const DeliveryAttempt = z
  .object({
    id: z.string(),
    projectId: z.string(),
    deliveryId: z.string().openapi({
      description: "The logical reminder — one per reminder, due time, recipient and channel, and per occurrence of a recurring meeting it is relative to; retries share it",
    }),
    reminderId: z.string(),
    recipientUserId: z.string(),
    channel: z.enum(PERSONAL_CHANNELS),
    attemptNo: z.number().int(),
    state: z.enum(OUTBOX_STATES),
    disposition: z.string().nullable().openapi({
      description:
        "Safe disposition code (null while pending). email: `sent`, `destination_unavailable` (the member has no address, or the relay refused the mailbox: 5xx to RCPT TO), " +
        "`provider_failure` (the relay could not take it: unreachable or silent past the timeouts, no STARTTLS or an unverified certificate while SMTP_URL carries credentials, " +
        "credentials refused, a 4xx reply, another 5xx), `provider_unconfigured` (no SMTP_URL). Cancelled attempts: `cancelled_<reason>` with reason `relinked`, `unlinked`, " +
        "`opted_out`, `revoked`, `terminal_work_state`, `occurrence_cancelled` (the occurrence of a recurring meeting was called off), `deadline_replaced`, `no_longer_eligible` " +
        "or `project_closed`.",
    }),
    destination: z.string().nullable().openapi({ description: "Masked" }),
    dueAt: Timestamp.openapi({ description: "The send time; for a reminder relative to a recurring meeting, its offset from that occurrence's start (the series keeps its local time in the project's time zone)" }),
    retryOf: z.string().nullable(),
    recordedAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .openapi("DeliveryAttempt");

export const DeliveryHistoryQuery = z.strictObject({
  channel: csvEnum(PERSONAL_CHANNELS),
  state: csvEnum(OUTBOX_STATES),
  ...PageQueryShape,
});
export const DeliveryHistory = listEnvelope(DeliveryAttempt, "DeliveryHistory");
