import { defineRoute, refuseAfterCommit } from "../../../platform/http/define-route.ts";
import { ChannelActionBody, ChannelActionParams, ChannelActionResult } from "../notifications.schemas.ts";
import { runChannelAction } from "../channels.service.ts";

export const runMyReminderChannelAction = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/my-reminder-channels/{channel}/{action}",
  operationId: "runMyReminderChannelAction",
  summary: "Link, verify, test or unlink one of the caller's channels",
  description:
    "Acts on the caller's own binding only. " +
    "messenger_a_dm (Telegram Bot API shape): `link` returns a one-time code (shown once, 15 minutes) and the bot's deep link; the user presses Start in the bot, then `verify` with `code` finds that chat through getUpdates and binds it (ready, new identity version). " +
    "messenger_b_dm (Discord API shape): `link` with `accountId` opens a DM from the bot and sends the code there; `verify` with that `code` binds the DM. " +
    "sms: `start` with `phoneNumber` (E.164) and `countryCode` (on the allowlist, else 409 sms_policy_blocked) sends a 6-digit code through the SMS gateway (10 minutes, 5 attempts); `resend` (once a minute, 5 per number, else 429 rate_limited); `verify` with `code`; `consent` grants consent (needs a verified number); `opt-out` withdraws it. " +
    "Every optional channel: `test` sends a test message (200 with its disposition; a refused DM makes the channel revoked), `unlink`, and `preference` with `reminders` (the explicit project preference fan-out needs). " +
    "The sms `test` answers the gateway job's real disposition right after enqueueing, `test: { disposition, code }`: `queued` (code null: waiting for a device's lease); `blocked_device_required` (no eligible online device or SIM: code no_active_device, device_offline, sim_roaming, permission_missing, no_active_sim or sim_unverified; an eligible device's heartbeat releases it); `blocked_policy` (country_not_allowed or segment_limit: no eligible device's policy allows it); `suppressed` (duplicate_content: the same text reached this user in the last 24 h); `expired` (job_expired). Messenger tests answer `sent` or the provider's safe failure code, with code null. " +
    "Messenger `test`, `link` and `verify` call the bot API outside the partner's write transaction (a slow bot API delays only this answer); `link` and `verify` then apply their change only if the binding did not change meanwhile (else 409 state_conflict, nothing changed); a retry with the same Idempotency-Key waits for the first and replays it. " +
    "Relink (a new number or chat), unlink, opt-out and revocation cancel, in the same transaction, the channel's scheduled reminders and open attempts and — for sms — every queued or leased SMS job of the binding, test messages and verification codes included; a device holding one of them gets `proceed: false` at its recheck. " +
    "Safe 409 codes: channel_identity_mismatch (two chats sent one code), channel_unavailable, sms_verification_required, sms_consent_required, sms_policy_blocked, challenge_expired, provider_failure, state_conflict (the channel's state forbids the action: no open code, no pending direct message, no consent to withdraw, a test of a channel that is not ready, or the channel changed while a messenger link or verify asked the bot API; nothing written); a wrong code is 400 at /body/code (counted). " +
    "An action the channel does not have is 400 at /params/action; `email` has none.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_view",
  // A messenger `test`, `link` and `verify` call the bot API between transactions: a slow bot API blocks no other writer of the partner.
  callsOutside: true,
  params: ChannelActionParams,
  body: ChannelActionBody,
  file: import.meta.path,
  responses: { 200: { description: "The channel after the action, with the link code or test disposition where the action has one", schema: ChannelActionResult } },
  handler: async (ctx, { params, body }) => {
    const outcome = await runChannelAction(ctx, params.projectId, params.channel, params.action, body);
    if (outcome.ok) return { status: 200, body: outcome.result };
    // A refused action that counted something (a wrong code, an expiry) is answered after commit, not thrown, so what it counted is kept.
    return refuseAfterCommit(outcome.error);
  },
});
