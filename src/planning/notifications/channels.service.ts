// Personal reminder channels: the current user's bindings in one project. Every
// function acts on ctx.actorId only; no input names a user, so a caller can never
// reach another user's destination. Email is the mandatory baseline (the member's
// address from the partner's membership); messenger_a_dm (Telegram Bot API shape),
// messenger_b_dm (Discord API shape) and sms are optional and need a ready binding
// plus an explicit project preference before fan-out gives them reminder rows.
import { and, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../platform/errors/app-error.ts";
import { db, withTx, writer, type TxCtx } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { requireProjectAccess, type ScopeCtx } from "../projects/index.ts";
import { recordAudit } from "../audit/index.ts";
import { cancelSms, enqueueSms, setSmsBinding, type BindingAccepts } from "./notifications.sms.ts";
import { cancelPersonalWork, type CancelReason } from "./notifications.work.ts";
import { discordOpenDm, discordSend, telegramBotUsername, telegramChatsThatSent, telegramSend, type SendOutcome } from "./notifications.providers.ts";
import {
  E164_RE,
  SMS_COUNTRIES,
  codeDigest,
  codeMatches,
  maskEmail,
  maskId,
  maskPhone,
  newLinkCode,
  newSmsCode,
  openLocator,
  sealLocator,
  type LocatorKind,
} from "./notifications.vault.ts";
import { planningChannelBindings, type OptionalChannel, type PersonalChannel } from "./notifications.tables.ts";
import type { ChannelAction, ChannelActionBody, ChannelActionResult, PersonalChannelView } from "./notifications.schemas.ts";

export type BindingRow = typeof planningChannelBindings.$inferSelect;
type View = z.input<typeof PersonalChannelView>;
type ActionResult = z.input<typeof ChannelActionResult>;
type Body = z.output<typeof ChannelActionBody>;

/** An action's outcome. A failure that must still persist what it counted (attempts, expiry) is returned, not thrown, so its transaction commits. */
export type ActionOutcome = { ok: true; result: ActionResult } | { ok: false; error: AppError };

export const LINK_TTL_MS = 15 * 60_000;
export const SMS_CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_INTERVAL_MS = 60_000;
export const MAX_CODE_SENDS = 5;

const ACTIONS: Record<PersonalChannel, readonly ChannelAction[]> = {
  email: [],
  messenger_a_dm: ["link", "verify", "test", "unlink", "preference"],
  messenger_b_dm: ["link", "verify", "test", "unlink", "preference"],
  sms: ["start", "resend", "verify", "consent", "test", "opt-out", "unlink", "preference"],
};

export const locatorKindOf = (channel: OptionalChannel): LocatorKind => (channel === "sms" ? "phone" : "dm-locator");

// ---------------------------------------------------------------- views

function smsState(b: BindingRow | undefined) {
  return {
    verification: b?.smsVerification ?? "unverified",
    consent: b?.smsConsent ?? "not_granted",
    countryCode: b?.countryCode ?? null,
    attemptsLeft: b?.smsVerification === "pending" ? Math.max(0, MAX_CODE_ATTEMPTS - b.challengeAttempts) : null,
    codeExpiresAt: b?.smsVerification === "pending" ? b.challengeExpiresAt : null,
    consentAt: b?.consentAt ?? null,
  };
}

export function toChannelView(channel: OptionalChannel, b: BindingRow | undefined): View {
  return {
    channel,
    readiness: b?.readiness ?? "unlinked",
    reason: b?.reason ?? null,
    destination: b?.locatorMask ?? null,
    identityVersion: b?.identityVersion ?? 0,
    reminders: b?.reminders ?? false,
    linkedAt: b?.linkedAt ?? null,
    sms: channel === "sms" ? smsState(b) : null,
  };
}

/** The member's email address: the mandatory baseline's destination (null when the identity provider gave none). */
export async function memberEmail(ctx: TenantCtx, userId: string): Promise<string | null> {
  const row = (await db(ctx).select({ email: memberships.email, status: memberships.status }).from(memberships).where(eq(memberships.userId, userId)))[0];
  return row && row.status === "active" ? row.email : null;
}

function emailView(address: string | null): View {
  return {
    channel: "email",
    readiness: address ? "ready" : "unlinked",
    reason: address ? null : "email_address_missing",
    destination: address ? maskEmail(address) : null,
    identityVersion: 0,
    reminders: true,
    linkedAt: null,
    sms: null,
  };
}

async function loadBinding(ctx: TenantCtx, projectId: string, userId: string, channel: OptionalChannel): Promise<BindingRow | undefined> {
  return (
    await db(ctx)
      .select()
      .from(planningChannelBindings)
      .where(and(eq(planningChannelBindings.projectId, projectId), eq(planningChannelBindings.userId, userId), eq(planningChannelBindings.channel, channel)))
  )[0];
}

export async function myReminderChannels(ctx: ScopeCtx, projectId: string) {
  await requireProjectAccess(ctx, projectId, "view");
  const [email, a, b, sms] = await Promise.all([
    memberEmail(ctx, ctx.actorId),
    loadBinding(ctx, projectId, ctx.actorId, "messenger_a_dm"),
    loadBinding(ctx, projectId, ctx.actorId, "messenger_b_dm"),
    loadBinding(ctx, projectId, ctx.actorId, "sms"),
  ]);
  return {
    projectId,
    userId: ctx.actorId,
    channels: [emailView(email), toChannelView("messenger_a_dm", a), toChannelView("messenger_b_dm", b), toChannelView("sms", sms)],
  };
}

// ---------------------------------------------------------------- actions

/**
 * Runs one personal channel action for the caller. 404 when the project is out of
 * scope; 400 for an action the channel does not have or a missing body field;
 * 409 with a safe code when the channel's state forbids it.
 */
export async function runChannelAction(ctx: ScopeCtx, projectId: string, channel: PersonalChannel, action: ChannelAction, body: Body): Promise<ActionOutcome> {
  // The bot API is called outside any transaction (the route is `callsOutside`): a messenger test, link and verify.
  if (!ctx.tx && (channel === "messenger_a_dm" || channel === "messenger_b_dm")) {
    if (action === "test") return testMessengerOutside(ctx, projectId, channel);
    if (asksProvider(channel, action)) return askThenApply(ctx, projectId, channel, action, body);
  }
  return withTx(ctx, (ctx) => applyAction(ctx, projectId, channel, action, body));
}

/** What a provider call was made for: the binding as it was (none yet: undefined) and the provider's answer. */
type Asked = { seen: BindingRow | undefined; answer: ProviderAnswer };

/**
 * The action in its transaction. Without `asked` (no provider call, or a caller whose
 * context already holds a transaction) a provider call the action needs is made here.
 * With `asked` (made before the transaction) the change applies only to the binding the
 * call was made for: changed meanwhile (another version, or created) is 409
 * state_conflict, nothing written.
 */
async function applyAction(ctx: TxCtx<ScopeCtx>, projectId: string, channel: PersonalChannel, action: ChannelAction, body: Body, asked?: Asked): Promise<ActionOutcome> {
  // Any project state: a user may always unlink or opt out; sends check the project below.
  await requireProjectAccess(ctx, projectId, "view");
  if (!ACTIONS[channel].includes(action)) {
    throw invalid("/params/action", channel === "email" ? "email is the mandatory baseline and has no actions" : `${channel} supports ${ACTIONS[channel].join(", ")}`);
  }
  const ch = channel as OptionalChannel;
  const existing = await loadBinding(ctx, projectId, ctx.actorId, ch);
  if (asked && existing?.version !== asked.seen?.version) {
    throw new AppError("state_conflict", `the channel changed while the ${channel} provider was asked (readiness is now ${existing?.readiness ?? "unlinked"}); nothing was changed, ${action} again`);
  }
  const b = existing ?? (await createBinding(ctx, projectId, ch));
  const answer = asked ? asked.answer : await askProvider(ctx, ch, b, action, body);
  const outcome = await dispatchAction(ctx, b, action, body, answer);
  if (outcome.ok) {
    await recordAudit(ctx, { projectId, recordType: "personal_channel", recordId: b.id, action: `channel_${action.replace("-", "_")}`, data: { channel, readiness: outcome.result.channel.readiness } });
  }
  return outcome;
}

/**
 * A messenger `link` or `verify` without holding the partner's write lock while the bot
 * API answers: the checks on committed data and the provider call, then one short
 * transaction that applies the change if the binding is still the one the call was made for.
 */
async function askThenApply(ctx: ScopeCtx, projectId: string, channel: "messenger_a_dm" | "messenger_b_dm", action: ChannelAction, body: Body): Promise<ActionOutcome> {
  await requireProjectAccess(ctx, projectId, "view");
  const seen = await loadBinding(ctx, projectId, ctx.actorId, channel);
  const answer = await askProvider(ctx, channel, seen, action, body);
  return withTx(ctx, (ctx) => applyAction(ctx, projectId, channel, action, body, { seen, answer }));
}

async function createBinding(ctx: TenantCtx, projectId: string, channel: OptionalChannel): Promise<BindingRow> {
  const row: BindingRow = {
    id: ctx.deps.newId(),
    projectId,
    userId: ctx.actorId,
    channel,
    readiness: "unlinked",
    reason: null,
    identityVersion: 0,
    locatorCipher: null,
    locatorMask: null,
    countryCode: null,
    challengeDigest: null,
    challengeExpiresAt: null,
    challengeAttempts: 0,
    challengeSends: 0,
    challengeSentAt: null,
    challengeSmsJobId: null,
    smsVerification: channel === "sms" ? "unverified" : null,
    smsConsent: channel === "sms" ? "not_granted" : null,
    consentAt: null,
    reminders: false,
    linkedAt: null,
    version: 1,
    createdAt: ctx.nowIso,
    updatedAt: ctx.nowIso,
  };
  await writer(ctx).insert(planningChannelBindings).values(row);
  return row;
}

/**
 * The one way a binding changes (in the action's transaction). A cancelling event
 * (relink, unlink, opt-out, revocation) first cancels the channel's unfinished
 * reminder work. For SMS, the gateway's copy of the binding follows in the same
 * transaction: what it may be sent now, its identity version and, on a
 * cancelling event, a raised cancellation revision that cancels every queued or
 * leased job of the binding — test messages and verification codes included.
 */
async function save(ctx: TenantCtx, b: BindingRow, patch: Partial<BindingRow>, cancel?: CancelReason): Promise<BindingRow> {
  if (cancel) await cancelPersonalWork(ctx, b.projectId, b.userId, b.channel, cancel);
  const next = { ...b, ...patch, version: b.version + 1, updatedAt: ctx.nowIso };
  await writer(ctx).update(planningChannelBindings).set(next).where(eq(planningChannelBindings.id, b.id));
  if (next.channel === "sms") {
    await setSmsBinding(ctx, { bindingId: next.id, projectId: next.projectId, recipientUserId: next.userId, identityVersion: next.identityVersion, accepts: smsAccepts(next), cancel });
  }
  return next;
}

/** What the gateway may send to an SMS binding: reminders and tests when ready, the code while verifying, else nothing. */
function smsAccepts(b: BindingRow): BindingAccepts {
  if (!b.locatorCipher) return "nothing";
  if (b.readiness === "ready" && b.smsVerification === "verified" && b.smsConsent === "granted") return "reminders";
  if (b.smsVerification === "pending" || b.smsVerification === "expired") return "verification";
  return "nothing";
}

const done = (channel: OptionalChannel, b: BindingRow, extra: Partial<ActionResult> = {}): ActionOutcome => ({
  ok: true,
  result: { channel: toChannelView(channel, b), link: null, test: null, ...extra },
});
const fail = (error: AppError): ActionOutcome => ({ ok: false, error });
const need = (value: unknown, path: string, message: string) => {
  if (value === undefined) throw invalid(path, message);
};

async function dispatchAction(ctx: TenantCtx, b: BindingRow, action: ChannelAction, body: Body, answer: ProviderAnswer): Promise<ActionOutcome> {
  const channel = b.channel;
  switch (action) {
    case "preference":
      need(body.reminders, "/body/reminders", "required: true to receive this project's reminders on this channel");
      if (!body.reminders) await cancelPersonalWork(ctx, b.projectId, b.userId, channel, "no_longer_eligible");
      return done(channel, await save(ctx, b, { reminders: body.reminders }));
    case "unlink":
      return done(channel, await unlink(ctx, b, "unlinked"));
    case "test":
      return testChannel(ctx, b);
    case "link":
      return channel === "messenger_a_dm" ? linkMessengerA(ctx, b, answerOf(answer, "bot_username").username) : linkMessengerB(ctx, b, answerOf(answer, "code_sent").sent);
    case "verify":
      need(body.code, "/body/code", "required: the one-time code");
      return channel === "sms" ? verifySms(ctx, b, body.code!) : verifyMessenger(ctx, b, body.code!, answer);
    case "start":
      return startSms(ctx, b, body);
    case "resend":
      return resendSms(ctx, b);
    case "consent":
      if (b.smsVerification !== "verified") throw new AppError("sms_verification_required", `the number must be verified before consent (verification is ${b.smsVerification})`);
      return done(channel, await save(ctx, b, { smsConsent: "granted", consentAt: ctx.nowIso, readiness: "ready", reason: null }));
    case "opt-out": {
      if (b.smsConsent !== "granted") throw new AppError("state_conflict", `consent is ${b.smsConsent}, there is nothing to withdraw`);
      return done(channel, await save(ctx, b, { smsConsent: "withdrawn", readiness: "blocked", reason: "sms_consent_required" }, "opted_out"));
    }
  }
}

/** Clears the identity and cancels its work; the identity version is kept, so the next link starts a new one. */
async function unlink(ctx: TenantCtx, b: BindingRow, reason: CancelReason): Promise<BindingRow> {
  // For SMS the gateway cancels every job of the binding, a verification code still on its way included.
  return save(
    ctx,
    b,
    {
      readiness: "unlinked",
      reason: null,
      locatorCipher: null,
      locatorMask: null,
      countryCode: null,
      challengeDigest: null,
      challengeExpiresAt: null,
      challengeAttempts: 0,
      challengeSends: 0,
      challengeSentAt: null,
      challengeSmsJobId: null,
      smsVerification: b.channel === "sms" ? "unverified" : null,
      smsConsent: b.channel === "sms" ? "not_granted" : null,
      consentAt: null,
      reminders: false,
      linkedAt: null,
    },
    reason,
  );
}

// ---------------------------------------------------------------- messengers

/** The actions that ask the bot API before they change the binding: link (both messengers) and verify (messenger_a's getUpdates). */
function asksProvider(channel: PersonalChannel, action: ChannelAction): boolean {
  if (action === "link") return channel === "messenger_a_dm" || channel === "messenger_b_dm";
  return action === "verify" && channel === "messenger_a_dm";
}

/** What the bot API answered for a link or verify (`none`: nothing to ask). */
type ProviderAnswer =
  | { kind: "none" }
  | { kind: "bot_username"; username: string | null }
  | { kind: "code_sent"; sent: { ok: true; dmChannelId: string; code: string } | { ok: false; error: AppError } }
  | { kind: "chats"; chats: string[] | null };

/**
 * The provider call an action needs, for the binding as it is now (undefined: none yet).
 * Checks the body and configuration first (throws); writes nothing, so it may run before
 * the action's transaction.
 */
async function askProvider(ctx: TenantCtx, channel: OptionalChannel, b: BindingRow | undefined, action: ChannelAction, body: Body): Promise<ProviderAnswer> {
  if (!asksProvider(channel, action)) return { kind: "none" };
  if (action === "verify") {
    need(body.code, "/body/code", "required: the one-time code");
    // Without an open code the transaction refuses (or records the expiry) without the bot's updates.
    if (!b?.challengeDigest || !b.challengeExpiresAt || b.challengeExpiresAt <= ctx.nowIso) return { kind: "none" };
    const { id, challengeDigest } = b;
    return { kind: "chats", chats: await telegramChatsThatSent(ctx.deps, (text) => codeMatches(ctx, id, "link", text, challengeDigest)) };
  }
  if (channel === "messenger_a_dm") {
    if (!ctx.deps.config.messengerA.botToken) throw new AppError("channel_unavailable", "messenger_a_dm is not configured on this service");
    return { kind: "bot_username", username: await telegramBotUsername(ctx.deps) };
  }
  need(body.accountId, "/body/accountId", "required: the account id the bot opens a direct message with");
  if (!ctx.deps.config.messengerB.botToken) throw new AppError("channel_unavailable", "messenger_b_dm is not configured on this service");
  const dm = await discordOpenDm(ctx.deps, body.accountId!);
  if (!dm.ok) return { kind: "code_sent", sent: { ok: false, error: providerError(dm.code) } };
  const code = newLinkCode();
  const sent = await discordSend(ctx.deps, dm.channelId, `Your reminder link code is ${code}. It expires in 15 minutes.`);
  if (!sent.ok) return { kind: "code_sent", sent: { ok: false, error: providerError(sent.code) } };
  return { kind: "code_sent", sent: { ok: true, dmChannelId: dm.channelId, code } };
}

/** The answer askProvider gave; it always asks when the action and binding need it, so another kind is a bug. */
function answerOf<K extends ProviderAnswer["kind"]>(answer: ProviderAnswer, kind: K): Extract<ProviderAnswer, { kind: K }> {
  if (answer.kind !== kind) throw new Error(`expected the provider's ${kind}, got ${answer.kind}`);
  return answer as Extract<ProviderAnswer, { kind: K }>;
}

/** messenger_a: a one-time code and the bot's deep link; the user sends `/start <code>` to the bot, then calls verify. */
async function linkMessengerA(ctx: TenantCtx, b: BindingRow, username: string | null): Promise<ActionOutcome> {
  const code = newLinkCode();
  const expiresAt = new Date(ctx.now.getTime() + LINK_TTL_MS).toISOString();
  const next = await save(
    ctx,
    b,
    {
      readiness: "pending",
      reason: null,
      locatorCipher: null,
      locatorMask: null,
      linkedAt: null,
      challengeDigest: codeDigest(ctx, b.id, "link", code),
      challengeExpiresAt: expiresAt,
      challengeAttempts: 0,
    },
    b.readiness === "ready" ? "relinked" : undefined,
  );
  return done(b.channel, next, { link: { code, deepLink: username ? `https://t.me/${username}?start=${code}` : null, expiresAt } });
}

/** messenger_b: the bot opened a DM with the named account and sent the code there (askProvider); verify proves the user read it. */
async function linkMessengerB(ctx: TenantCtx, b: BindingRow, sent: Extract<ProviderAnswer, { kind: "code_sent" }>["sent"]): Promise<ActionOutcome> {
  if (!sent.ok) return fail(sent.error);
  const { code, dmChannelId } = sent;
  const expiresAt = new Date(ctx.now.getTime() + LINK_TTL_MS).toISOString();
  const next = await save(
    ctx,
    b,
    {
      readiness: "pending",
      reason: null,
      // The pending locator is sealed now and becomes the identity only when verified.
      locatorCipher: sealLocator(ctx, "dm-locator", b.id, dmChannelId),
      locatorMask: null,
      linkedAt: null,
      challengeDigest: codeDigest(ctx, b.id, "link", code),
      challengeExpiresAt: expiresAt,
      challengeAttempts: 0,
    },
    b.readiness === "ready" ? "relinked" : undefined,
  );
  return done(b.channel, next, { link: null });
}

async function verifyMessenger(ctx: TenantCtx, b: BindingRow, code: string, answer: ProviderAnswer): Promise<ActionOutcome> {
  const open = await openChallenge(ctx, b, "link");
  if (!open.ok) return open.outcome;
  if (b.channel === "messenger_a_dm") {
    const { chats } = answerOf(answer, "chats");
    if (chats === null) return fail(new AppError("provider_failure", "the messenger_a provider could not be asked for the bot's updates"));
    if (chats.length === 0) return fail(new AppError("channel_unavailable", "no chat with the bot has sent the link code yet: open the deep link, press Start, then verify"));
    if (!codeMatches(ctx, b.id, "link", code, b.challengeDigest)) return countFailedAttempt(ctx, b);
    if (chats.length > 1) {
      // Two chats sent the same code: the code leaked. Burn it rather than guess.
      await save(ctx, b, { challengeDigest: null, challengeExpiresAt: null, readiness: "error", reason: "channel_identity_mismatch" });
      return fail(new AppError("channel_identity_mismatch", "more than one chat sent this code; link again"));
    }
    const chatId = chats[0]!;
    return done(b.channel, await bind(ctx, b, sealLocator(ctx, "dm-locator", b.id, chatId), maskId("chat", chatId)));
  }
  if (!codeMatches(ctx, b.id, "link", code, b.challengeDigest)) return countFailedAttempt(ctx, b);
  if (!b.locatorCipher) throw new AppError("state_conflict", "no direct message is pending; link first");
  const channelId = openLocator(ctx, "dm-locator", b.id, b.locatorCipher);
  return done(b.channel, await bind(ctx, b, b.locatorCipher, maskId("dm", channelId)));
}

/** A verified identity: a new identity version, ready. */
function bind(ctx: TenantCtx, b: BindingRow, locatorCipher: string, locatorMask: string): Promise<BindingRow> {
  return save(ctx, b, {
    readiness: "ready",
    reason: null,
    locatorCipher,
    locatorMask,
    identityVersion: b.identityVersion + 1,
    linkedAt: ctx.nowIso,
    challengeDigest: null,
    challengeExpiresAt: null,
    challengeAttempts: 0,
  });
}

/** The open challenge, or the outcome to return: none open (409), expired (409 challenge_expired, persisted). */
async function openChallenge(ctx: TenantCtx, b: BindingRow, what: "link" | "sms"): Promise<{ ok: true } | { ok: false; outcome: ActionOutcome }> {
  if (!b.challengeDigest || !b.challengeExpiresAt) {
    throw new AppError("state_conflict", `no ${what === "link" ? "link code" : "verification code"} is open (readiness is ${b.readiness}); ${what === "link" ? "link" : "start or resend"} first`);
  }
  if (b.challengeExpiresAt <= ctx.nowIso) {
    await save(ctx, b, { challengeDigest: null, challengeExpiresAt: null, ...(what === "sms" ? { smsVerification: "expired" as const } : {}) });
    return { ok: false, outcome: fail(new AppError("challenge_expired", `the code expired; ${what === "link" ? "link" : "resend"} again`)) };
  }
  return { ok: true };
}

async function countFailedAttempt(ctx: TenantCtx, b: BindingRow): Promise<ActionOutcome> {
  const attempts = b.challengeAttempts + 1;
  if (attempts >= MAX_CODE_ATTEMPTS) {
    await save(ctx, b, {
      challengeAttempts: attempts,
      challengeDigest: null,
      challengeExpiresAt: null,
      readiness: "blocked",
      reason: "attempts_exhausted",
      ...(b.channel === "sms" ? { smsVerification: "blocked" as const } : {}),
    });
    return fail(new AppError("rate_limited", "too many wrong codes: this code is void; start again later", { headers: { "Retry-After": "60" } }));
  }
  await save(ctx, b, { challengeAttempts: attempts });
  return fail(invalid("/body/code", `the code does not match (${MAX_CODE_ATTEMPTS - attempts} attempts left)`));
}

// ---------------------------------------------------------------- sms

async function startSms(ctx: TenantCtx, b: BindingRow, body: Body): Promise<ActionOutcome> {
  need(body.phoneNumber, "/body/phoneNumber", "required: the number in E.164");
  need(body.countryCode, "/body/countryCode", "required: ISO 3166-1 alpha-2 country");
  const phone = body.phoneNumber!;
  const country = body.countryCode!;
  const callingCode = SMS_COUNTRIES[country];
  if (!callingCode) throw new AppError("sms_policy_blocked", `${country} is not on the SMS country allowlist`);
  if (!E164_RE.test(phone) || !phone.startsWith(`+${callingCode}`)) throw invalid("/body/phoneNumber", `must be an E.164 number of ${country} (+${callingCode}…)`);
  // A new number is a new identity: stale work of the old one goes (every queued SMS of the binding), consent must be given again.
  const restarted = await save(
    ctx,
    b,
    {
      readiness: "pending",
      reason: "sms_verification_required",
      locatorCipher: sealLocator(ctx, "phone", b.id, phone),
      locatorMask: maskPhone(phone),
      countryCode: country,
      identityVersion: b.identityVersion + 1,
      smsVerification: "pending",
      smsConsent: "not_granted",
      consentAt: null,
      linkedAt: null,
      challengeSends: 0,
      challengeSentAt: null,
    },
    b.locatorCipher ? "relinked" : undefined,
  );
  return sendSmsCode(ctx, restarted, phone);
}

async function resendSms(ctx: TenantCtx, b: BindingRow): Promise<ActionOutcome> {
  if (b.smsVerification !== "pending" && b.smsVerification !== "expired") throw new AppError("state_conflict", `verification is ${b.smsVerification}; only a pending or expired verification can be resent`);
  if (!b.locatorCipher) throw new AppError("state_conflict", "no number to verify; start first");
  if (b.challengeSentAt && ctx.now.getTime() - new Date(b.challengeSentAt).getTime() < RESEND_INTERVAL_MS) {
    const wait = Math.ceil((RESEND_INTERVAL_MS - (ctx.now.getTime() - new Date(b.challengeSentAt).getTime())) / 1000);
    throw new AppError("rate_limited", `a code was sent less than a minute ago; wait ${wait} s`, { headers: { "Retry-After": String(wait) } });
  }
  if (b.challengeSends >= MAX_CODE_SENDS) throw new AppError("rate_limited", `at most ${MAX_CODE_SENDS} codes per number; start again with the number later`, { headers: { "Retry-After": "3600" } });
  const phone = openLocator(ctx, "phone", b.id, b.locatorCipher);
  return sendSmsCode(ctx, b, phone);
}

/** A fresh code (the previous one is void and its job cancelled), enqueued at the gateway as a verification SMS. */
async function sendSmsCode(ctx: TenantCtx, b: BindingRow, phone: string): Promise<ActionOutcome> {
  if (b.challengeSmsJobId) await cancelSms(ctx, b.challengeSmsJobId, "superseded");
  const code = newSmsCode();
  const sends = b.challengeSends + 1;
  const expiresAt = new Date(ctx.now.getTime() + SMS_CODE_TTL_MS).toISOString();
  const job = await enqueueSms(ctx, {
    projectId: b.projectId,
    recipientUserId: b.userId,
    phoneE164: phone,
    countryCode: b.countryCode!,
    text: `Your verification code is ${code}. It expires in 10 minutes.`,
    purpose: "verification",
    logicalKey: `sms-verification:${b.id}:${b.identityVersion}:${sends}`,
    bindingId: b.id,
    identityVersion: b.identityVersion,
    expiresAt,
  });
  const next = await save(ctx, b, {
    smsVerification: "pending",
    challengeDigest: codeDigest(ctx, b.id, "sms", code),
    challengeExpiresAt: expiresAt,
    challengeAttempts: 0,
    challengeSends: sends,
    challengeSentAt: ctx.nowIso,
    challengeSmsJobId: job.jobId,
  });
  return done("sms", next);
}

async function verifySms(ctx: TenantCtx, b: BindingRow, code: string): Promise<ActionOutcome> {
  if (b.smsVerification !== "pending") throw new AppError("state_conflict", `verification is ${b.smsVerification}; start or resend first`);
  const open = await openChallenge(ctx, b, "sms");
  if (!open.ok) return open.outcome;
  if (!codeMatches(ctx, b.id, "sms", code, b.challengeDigest)) return countFailedAttempt(ctx, b);
  const consented = b.smsConsent === "granted";
  const next = await save(ctx, b, {
    smsVerification: "verified",
    readiness: consented ? "ready" : "pending",
    reason: consented ? null : "sms_consent_required",
    linkedAt: ctx.nowIso,
    challengeDigest: null,
    challengeExpiresAt: null,
    challengeAttempts: 0,
    challengeSmsJobId: null,
  });
  return done("sms", next);
}

// ---------------------------------------------------------------- test

function providerError(code: string): AppError {
  if (code === "destination_unavailable") return new AppError("channel_unavailable", "the provider refused the direct message (the account is unknown or blocks the bot)");
  if (code === "provider_unconfigured") return new AppError("channel_unavailable", "the provider is not configured on this service");
  if (code === "rate_limited") return new AppError("rate_limited", "the provider is rate limiting; try again later", { headers: { "Retry-After": "60" } });
  return new AppError("provider_failure", "the provider did not answer as expected");
}

/**
 * Sends a test message to the bound identity; the disposition is the answer (200).
 * Messengers answer the provider's outcome (`sent` or a safe failure code; a
 * refused DM revokes the binding). SMS answers the gateway job's real state after
 * enqueueing, with its safe code: `queued` (pending), `blocked_device_required`
 * (no_active_device, device_offline, sim_roaming…), `blocked_policy`
 * (country_not_allowed, segment_limit), `suppressed` (duplicate_content) …
 */
async function testChannel(ctx: TenantCtx, b: BindingRow): Promise<ActionOutcome> {
  if (b.channel === "sms") {
    if (b.smsVerification !== "verified") throw new AppError("sms_verification_required", `verification is ${b.smsVerification}`);
    if (b.smsConsent !== "granted") throw new AppError("sms_consent_required", `consent is ${b.smsConsent}`);
  }
  if (b.readiness !== "ready" || !b.locatorCipher) throw new AppError("state_conflict", `the channel is ${b.readiness}; only a ready channel can be tested`);
  const locator = openLocator(ctx, locatorKindOf(b.channel), b.id, b.locatorCipher);
  const text = TEST_TEXT;
  if (b.channel === "sms") {
    const job = await enqueueSms(ctx, {
      projectId: b.projectId,
      recipientUserId: b.userId,
      phoneE164: locator,
      countryCode: b.countryCode!,
      text,
      purpose: "reminder",
      logicalKey: `sms-test:${b.id}:${b.identityVersion}:${ctx.nowIso}`,
      bindingId: b.id,
      identityVersion: b.identityVersion,
    });
    return done(b.channel, b, { test: { disposition: job.state === "pending" ? "queued" : job.state, code: job.code } });
  }
  const outcome: SendOutcome = b.channel === "messenger_a_dm" ? await telegramSend(ctx.deps, locator, text) : await discordSend(ctx.deps, locator, text);
  if (outcome.ok) return done(b.channel, b, { test: { disposition: "sent", code: null } });
  if (outcome.code === "destination_unavailable") {
    const revoked = await revokeBinding(ctx, b);
    return done(b.channel, revoked, { test: { disposition: outcome.code, code: null } });
  }
  return done(b.channel, b, { test: { disposition: outcome.code, code: null } });
}

const TEST_TEXT = "Test message: reminders for this project will arrive here.";

/**
 * A messenger channel's `test` without holding the partner's write lock while the bot
 * API answers: the checks on committed data, the send, then one transaction that
 * checks again, revokes the binding when the chat is gone (and it is still the
 * identity the message went to) and writes the audit row. The answer is as in the
 * transaction (testChannel): the channel as it is now and the send's disposition.
 */
async function testMessengerOutside(ctx: ScopeCtx, projectId: string, channel: "messenger_a_dm" | "messenger_b_dm"): Promise<ActionOutcome> {
  const notReady = (b: BindingRow | undefined) => new AppError("state_conflict", `the channel is ${b?.readiness ?? "unlinked"}; only a ready channel can be tested`);
  await requireProjectAccess(ctx, projectId, "view");
  const sentTo = await loadBinding(ctx, projectId, ctx.actorId, channel);
  if (!sentTo || sentTo.readiness !== "ready" || !sentTo.locatorCipher) throw notReady(sentTo);
  const locator = openLocator(ctx, locatorKindOf(channel), sentTo.id, sentTo.locatorCipher);
  const outcome: SendOutcome = channel === "messenger_a_dm" ? await telegramSend(ctx.deps, locator, TEST_TEXT) : await discordSend(ctx.deps, locator, TEST_TEXT);
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "view");
    let b = await loadBinding(ctx, projectId, ctx.actorId, channel);
    if (!b) throw notReady(b);
    const sameIdentity = b.readiness === "ready" && b.identityVersion === sentTo.identityVersion;
    if (!outcome.ok && outcome.code === "destination_unavailable" && sameIdentity) b = await revokeBinding(ctx, b);
    await recordAudit(ctx, { projectId, recordType: "personal_channel", recordId: b.id, action: "channel_test", data: { channel, readiness: b.readiness } });
    return done(channel, b, { test: { disposition: outcome.ok ? "sent" : outcome.code, code: null } });
  });
}

/** The provider says the user blocked the bot or the chat is gone: revoked, and the stale work cancelled. */
export async function revokeBinding(ctx: TenantCtx, b: BindingRow): Promise<BindingRow> {
  return save(ctx, b, { readiness: "revoked", reason: "channel_unavailable", ...(b.channel === "sms" ? { smsVerification: "revoked" as const } : {}) }, "revoked");
}

/** For the delivery module: revoke a binding by id when a send finds the destination gone. */
export async function revokeBindingOf(ctx: TenantCtx, projectId: string, userId: string, channel: OptionalChannel, identityVersion: number): Promise<void> {
  const b = await loadBinding(ctx, projectId, userId, channel);
  if (b && b.readiness === "ready" && b.identityVersion === identityVersion) await revokeBinding(ctx, b);
}
