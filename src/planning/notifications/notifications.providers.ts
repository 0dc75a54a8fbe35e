// The three outbound providers, each reduced to what reminders need, and each
// answering with a safe disposition code instead of provider text (which may echo
// tokens or chat ids). Base URLs and tokens come from config; tests point them at
// loopback servers speaking the same shapes.
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { Deps } from "../../platform/deps.ts";

/** Outcome of one provider call. `code` is a stable safe code (see notifications.codes). */
export type SendOutcome = { ok: true; ref?: string } | { ok: false; code: FailureCode; permanent: boolean };
export type FailureCode = "provider_unconfigured" | "provider_failure" | "destination_unavailable" | "rate_limited";

const TIMEOUT_MS = 10_000;

// ---------------------------------------------------------------- SMTP (minimal client)

interface SmtpTarget {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
}

function parseSmtpUrl(url: string): SmtpTarget | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "smtp:" && u.protocol !== "smtps:") return null;
    const secure = u.protocol === "smtps:";
    return {
      host: u.hostname,
      port: u.port ? Number(u.port) : secure ? 465 : 25,
      secure,
      user: u.username ? decodeURIComponent(u.username) : undefined,
      pass: u.password ? decodeURIComponent(u.password) : undefined,
      from: u.searchParams.get("from") ?? "reminders@localhost",
    };
  } catch {
    return null;
  }
}

/** A line-reading SMTP conversation: send a command, wait for the final reply line. */
class SmtpSession {
  #buf = "";
  #waiters: Array<(line: string) => void> = [];
  #lines: string[] = [];
  #closed = false;
  constructor(private socket: Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.#buf += chunk;
      let i: number;
      while ((i = this.#buf.indexOf("\r\n")) >= 0) {
        const line = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 2);
        // Multi-line replies use "250-"; only the final "250 " line completes a reply.
        if (/^\d{3} /.test(line) || /^\d{3}$/.test(line)) {
          const w = this.#waiters.shift();
          if (w) w(line);
          else this.#lines.push(line);
        }
      }
    });
    const fail = () => {
      this.#closed = true;
      for (const w of this.#waiters.splice(0)) w("421 closed");
    };
    socket.on("error", fail);
    socket.on("close", fail);
  }
  reply(): Promise<string> {
    const ready = this.#lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (this.#closed) return Promise.resolve("421 closed");
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  async cmd(line: string, expect: number): Promise<void> {
    this.socket.write(line + "\r\n");
    await this.expect(expect);
  }
  async expect(code: number): Promise<void> {
    const line = await this.reply();
    const got = Number(line.slice(0, 3));
    if (got !== code) throw new SmtpReplyError(got);
  }
}

class SmtpReplyError extends Error {
  constructor(readonly status: number) {
    super(`smtp reply ${status}`);
  }
}

function headerSafe(s: string): string {
  return s.replace(/[\r\n]+/g, " ");
}

export async function sendEmail(deps: Deps, to: string, subject: string, text: string): Promise<SendOutcome> {
  if (!deps.config.smtpUrl) return { ok: false, code: "provider_unconfigured", permanent: true };
  const target = parseSmtpUrl(deps.config.smtpUrl);
  if (!target) return { ok: false, code: "provider_unconfigured", permanent: true };
  let socket: Socket | undefined;
  try {
    socket = await new Promise<Socket>((resolve, reject) => {
      const s = target.secure ? tlsConnect({ host: target.host, port: target.port, servername: target.host }) : netConnect({ host: target.host, port: target.port });
      s.once(target.secure ? "secureConnect" : "connect", () => resolve(s));
      s.once("error", reject);
      s.setTimeout(TIMEOUT_MS, () => s.destroy(new Error("smtp timeout")));
    });
    const smtp = new SmtpSession(socket);
    await smtp.expect(220);
    await smtp.cmd("EHLO reminders.local", 250);
    if (target.user) {
      const plain = Buffer.from(`\u0000${target.user}\u0000${target.pass ?? ""}`).toString("base64");
      await smtp.cmd(`AUTH PLAIN ${plain}`, 235);
    }
    await smtp.cmd(`MAIL FROM:<${target.from}>`, 250);
    await smtp.cmd(`RCPT TO:<${to}>`, 250);
    await smtp.cmd("DATA", 354);
    const body = text.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    const message = [
      `From: <${target.from}>`,
      `To: <${to}>`,
      `Subject: ${headerSafe(subject)}`,
      `Date: ${new Date().toUTCString()}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      body,
      ".",
    ].join("\r\n");
    await smtp.cmd(message, 250);
    socket.write("QUIT\r\n");
    return { ok: true };
  } catch (err) {
    const status = err instanceof SmtpReplyError ? err.status : 0;
    // 5xx on RCPT is a bad mailbox (permanent); anything else may pass later.
    if (status >= 500 && status < 600) return { ok: false, code: "destination_unavailable", permanent: true };
    return { ok: false, code: "provider_failure", permanent: false };
  } finally {
    socket?.end();
  }
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
