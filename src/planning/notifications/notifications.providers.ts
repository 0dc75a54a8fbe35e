// The three outbound providers, each reduced to what reminders need, and each
// answering with a safe disposition code instead of provider text (which may echo
// tokens, chat ids or addresses). E-mail goes through deps.mailer (nodemailer over
// SMTP_URL, src/platform/mail/mailer.ts); base URLs and tokens of the bot APIs come
// from config. Tests point them at loopback servers speaking the same shapes.
import type { Deps } from "../../platform/deps.ts";
import type { MailFailure } from "../../platform/mail/mailer.ts";

/** Outcome of one provider call. `code` is a stable safe code (see notifications.codes). */
export type SendOutcome = { ok: true; ref?: string } | { ok: false; code: FailureCode; permanent: boolean };
export type FailureCode = "provider_unconfigured" | "provider_failure" | "destination_unavailable" | "rate_limited";

const TIMEOUT_MS = 10_000;

// ---------------------------------------------------------------- e-mail (deps.mailer)

/**
 * Why the relay did not take a message, as the outbox records it: credentials, TLS and
 * connection problems (and a deferring 4xx) are the provider's (`provider_failure`, a
 * manual retry may pass once it is fixed); a 5xx to the recipient, or an address that is
 * not one plain address, is a bad mailbox (`destination_unavailable`); another 5xx (our sender or the message refused) is the
 * provider's again; no SMTP_URL is `provider_unconfigured`.
 */
function emailFailure(failure: MailFailure, permanent: boolean): SendOutcome {
  switch (failure) {
    case "unconfigured":
      return { ok: false, code: "provider_unconfigured", permanent: true };
    case "recipient_invalid":
    case "recipient_refused":
      return { ok: false, code: "destination_unavailable", permanent: true };
    default:
      return { ok: false, code: "provider_failure", permanent };
  }
}

export async function sendEmail(deps: Deps, to: string, subject: string, text: string): Promise<SendOutcome> {
  const r = await deps.mailer.send({ to, subject, text, date: deps.clock.now() });
  if (r.ok) return { ok: true, ref: r.messageId };
  // Safe facts only: the reason, the reply code and the SMTP stage; never the address or the relay's text.
  if (r.failure !== "unconfigured") deps.log.warn("email not sent", { reason: r.failure, smtpStatus: r.smtpStatus ?? null, stage: r.stage ?? null });
  return emailFailure(r.failure, r.permanent);
}

// ---------------------------------------------------------------- HTTP helper

async function callJson(deps: Deps, url: string, init: { method: string; headers?: Record<string, string>; body?: unknown }): Promise<{ status: number; json: any } | null> {
  try {
    const res = await deps.fetch(url, {
      method: init.method,
      headers: { "content-type": "application/json", ...(init.headers ?? {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json };
  } catch {
    return null;
  }
}

function failureOf(status: number): SendOutcome {
  if (status === 429) return { ok: false, code: "rate_limited", permanent: false };
  if (status === 403 || status === 404 || status === 400) return { ok: false, code: "destination_unavailable", permanent: true };
  return { ok: false, code: "provider_failure", permanent: false };
}

// ---------------------------------------------------------------- messenger_a: Telegram Bot API shape

function telegramUrl(deps: Deps, method: string): string | null {
  const { apiBase, botToken } = deps.config.messengerA;
  if (!botToken) return null;
  return `${apiBase.replace(/\/+$/, "")}/bot${botToken}/${method}`;
}

/** The bot's username, for the `https://t.me/<bot>?start=<code>` deep link. */
export async function telegramBotUsername(deps: Deps): Promise<string | null> {
  const url = telegramUrl(deps, "getMe");
  if (!url) return null;
  const r = await callJson(deps, url, { method: "GET" });
  const name = r?.json?.ok ? r.json.result?.username : null;
  return typeof name === "string" ? name : null;
}

/**
 * Chats that sent `/start <code>` (or the bare code) to the bot, by getUpdates.
 * Returns the distinct private chat ids; `null` when the provider cannot be asked.
 */
export async function telegramChatsThatSent(deps: Deps, matches: (text: string) => boolean): Promise<string[] | null> {
  const url = telegramUrl(deps, "getUpdates");
  if (!url) return null;
  const r = await callJson(deps, url, { method: "POST", body: { allowed_updates: ["message"], timeout: 0 } });
  if (!r || r.status !== 200 || !r.json?.ok || !Array.isArray(r.json.result)) return null;
  const chats = new Set<string>();
  for (const u of r.json.result) {
    const m = u?.message;
    if (!m || typeof m.text !== "string" || m.chat?.type !== "private") continue;
    const text = m.text.trim();
    const code = text.startsWith("/start ") ? text.slice(7).trim() : text;
    if (matches(code)) chats.add(String(m.chat.id));
  }
  return [...chats];
}

export async function telegramSend(deps: Deps, chatId: string, text: string): Promise<SendOutcome> {
  const url = telegramUrl(deps, "sendMessage");
  if (!url) return { ok: false, code: "provider_unconfigured", permanent: true };
  const r = await callJson(deps, url, { method: "POST", body: { chat_id: chatId, text } });
  if (!r) return { ok: false, code: "provider_failure", permanent: false };
  if (r.status === 200 && r.json?.ok) return { ok: true };
  return failureOf(r.status);
}

// ---------------------------------------------------------------- messenger_b: Discord API shape

function discordBase(deps: Deps): { base: string; auth: Record<string, string> } | null {
  const { apiBase, botToken } = deps.config.messengerB;
  if (!botToken) return null;
  return { base: apiBase.replace(/\/+$/, ""), auth: { authorization: `Bot ${botToken}` } };
}

/** Opens (or finds) the DM channel with a Discord user: POST /users/@me/channels. */
export async function discordOpenDm(deps: Deps, recipientId: string): Promise<{ ok: true; channelId: string } | { ok: false; code: FailureCode; permanent: boolean }> {
  const d = discordBase(deps);
  if (!d) return { ok: false, code: "provider_unconfigured", permanent: true };
  const r = await callJson(deps, `${d.base}/users/@me/channels`, { method: "POST", headers: d.auth, body: { recipient_id: recipientId } });
  if (!r) return { ok: false, code: "provider_failure", permanent: false };
  if (r.status === 200 && typeof r.json?.id === "string") return { ok: true, channelId: r.json.id };
  const f = failureOf(r.status);
  return f.ok ? { ok: false, code: "provider_failure", permanent: false } : f;
}

/** POST /channels/{id}/messages. */
export async function discordSend(deps: Deps, channelId: string, content: string): Promise<SendOutcome> {
  const d = discordBase(deps);
  if (!d) return { ok: false, code: "provider_unconfigured", permanent: true };
  const r = await callJson(deps, `${d.base}/channels/${encodeURIComponent(channelId)}/messages`, { method: "POST", headers: d.auth, body: { content } });
  if (!r) return { ok: false, code: "provider_failure", permanent: false };
  if (r.status === 200 || r.status === 201) return { ok: true };
  return failureOf(r.status);
}
