// Outbound e-mail over SMTP through nodemailer, built once from SMTP_URL (deps.mailer).
//
// Transport security, decided here and nowhere else:
// - `smtps://host[:465]`: TLS from the first byte (implicit TLS).
// - `smtp://user:pass@host[:25]`: STARTTLS is required before AUTH (nodemailer `requireTLS`);
//   a relay that does not offer it, or whose certificate does not verify, gets no credentials
//   and no message (failure `tls_unavailable` / `tls_failed`).
// - `smtp://host[:25]` without credentials: STARTTLS whenever the relay offers it (certificate
//   verified); a relay that offers nothing, or answers STARTTLS with an error, gets the
//   message in plain text, as it would from any MTA (opportunistic, RFC 3207 / RFC 7435).
// Certificates are verified against the system trust store (TLS 1.2 at least).
//
// One small pool of connections (2, each reused for up to 100 messages and closed after 5 s
// idle), so a burst of reminders costs one handshake and one AUTH, not one per message.
// Every wait is bounded: connect 10 s, greeting 10 s, DNS 10 s, socket inactivity 20 s, and
// 30 s for one message end to end (queueing in the pool included), so a dead or stalling relay
// never holds a worker long.
//
// Results carry a safe reason, never the relay's reply text (it may echo the recipient or the
// user name); the caller maps the reason to its own disposition and logs nothing else.
import type { ConnectionOptions } from "node:tls";
import { createTransport } from "nodemailer";

export interface OutgoingMail {
  /** One plain address (`local@domain`); anything else (a list, a display name) is refused, never parsed. */
  to: string;
  subject: string;
  /** Plain UTF-8 text. */
  text: string;
  /** The Date header (the service's clock); nodemailer's own clock when unset. */
  date?: Date;
}

/**
 * Why a message was not accepted by the relay:
 * - `unconfigured`: no SMTP_URL, or not an `smtp://` / `smtps://` URL;
 * - `auth_failed`: the relay refused the credentials;
 * - `tls_unavailable`: credentials are configured but the relay offers no STARTTLS (or refuses it);
 * - `tls_failed`: the TLS handshake failed (certificate not trusted, name mismatch, protocol);
 * - `unreachable`: DNS failure, connection refused, reset or closed;
 * - `timeout`: connecting, the greeting, an idle socket or the 30 s deadline of the message;
 * - `recipient_invalid`: `to` is not one plain address (a list, a display name, control characters): nothing is sent;
 * - `recipient_refused`: the relay answered RCPT TO with 5xx (no such mailbox, relaying denied);
 * - `rejected`: another 5xx (sender or message refused);
 * - `deferred`: a 4xx reply (try later);
 * - `failed`: anything else (protocol error).
 */
export type MailFailure = "unconfigured" | "recipient_invalid" | "auth_failed" | "tls_unavailable" | "tls_failed" | "unreachable" | "timeout" | "recipient_refused" | "rejected" | "deferred" | "failed";

export type MailResult =
  | { ok: true; messageId: string }
  | {
      ok: false;
      failure: MailFailure;
      /** Sending the same message again will fail the same way (a 5xx, or no configuration). */
      permanent: boolean;
      /** The relay's reply code, when it answered (no reply text). */
      smtpStatus?: number;
      /** The SMTP stage that failed (`CONN`, `EHLO`, `STARTTLS`, `AUTH PLAIN`, `MAIL FROM`, `RCPT TO`, `DATA`…). */
      stage?: string;
    };

export interface Mailer {
  /** Whether SMTP_URL is usable; `send` answers `unconfigured` otherwise. */
  readonly configured: boolean;
  send(mail: OutgoingMail): Promise<MailResult>;
  /** Closes idle pooled connections (shutdown); a later `send` opens new ones. */
  close(): void;
}

export interface MailTimeouts {
  connectMs: number;
  greetingMs: number;
  dnsMs: number;
  socketMs: number;
  /** One message end to end, pool queueing included. */
  messageMs: number;
}

export const MAIL_TIMEOUTS: MailTimeouts = { connectMs: 10_000, greetingMs: 10_000, dnsMs: 10_000, socketMs: 20_000, messageMs: 30_000 };

export interface MailerOptions {
  /** Extra trust for the relay's certificate (a private CA; tests' self-signed relay) and its expected name. */
  tls?: Pick<ConnectionOptions, "ca" | "servername">;
  timeouts?: Partial<MailTimeouts>;
}

export interface SmtpTarget {
  host: string;
  port: number;
  /** Implicit TLS (`smtps://`). */
  secure: boolean;
  user?: string;
  pass?: string;
  /** Envelope and header sender; the Message-ID is generated on its domain. */
  from: string;
}

/** `smtp[s]://[user[:pass]@]host[:port][?from=sender@domain]`; null when not such a URL. */
export function parseSmtpUrl(url: string): SmtpTarget | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "smtp:" && u.protocol !== "smtps:") return null;
    if (!u.hostname) return null;
    const secure = u.protocol === "smtps:";
    return {
      host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
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

export function createMailer(smtpUrl: string | undefined, opts: MailerOptions = {}): Mailer {
  const target = smtpUrl ? parseSmtpUrl(smtpUrl) : null;
  if (!target) {
    return { configured: false, send: async () => ({ ok: false, failure: "unconfigured", permanent: true }), close() {} };
  }
  const t = { ...MAIL_TIMEOUTS, ...opts.timeouts };
  const credentials = target.user !== undefined;
  const transport = createTransport({
    pool: true,
    maxConnections: 2,
    maxMessages: 100,
    idleTimeout: 5_000,
    // A connection that drops mid-message is retried once on a fresh one, then the message fails.
    maxRequeues: 1,
    host: target.host,
    port: target.port,
    secure: target.secure,
    // Credentials never travel in clear text: STARTTLS or nothing.
    requireTLS: !target.secure && credentials,
    // Without credentials, a relay that answers STARTTLS with an error still gets the message.
    opportunisticTLS: !target.secure && !credentials,
    auth: credentials ? { user: target.user, pass: target.pass ?? "" } : undefined,
    tls: { minVersion: "TLSv1.2", ...opts.tls },
    connectionTimeout: t.connectMs,
    greetingTimeout: t.greetingMs,
    dnsTimeout: t.dnsMs,
    socketTimeout: t.socketMs,
    // nodemailer's own log would carry addresses and replies: off.
    logger: false,
    debug: false,
  });
  const from = { name: "", address: target.from };
  return {
    configured: true,
    async send(mail) {
      // nodemailer would parse a list out of the envelope address ("a@x, b@y" is two RCPT TO).
      if (!SINGLE_ADDRESS.test(mail.to)) return { ok: false, failure: "recipient_invalid", permanent: true };
      try {
        const info = await transport.sendMail({
          from,
          to: { name: "", address: mail.to },
          envelope: { from: target.from, to: [mail.to] },
          subject: mail.subject,
          text: mail.text,
          date: mail.date,
          signal: AbortSignal.timeout(t.messageMs),
        });
        return { ok: true, messageId: info.messageId };
      } catch (err) {
        return classify(err);
      }
    },
    close: () => transport.close(),
  };
}

/** One addr-spec without quoting, comments, lists or control characters (non-ASCII allowed). */
const SINGLE_ADDRESS = /^[^\s\x00-\x1f\x7f@<>()[\]\\,;:"]+@[^\s\x00-\x1f\x7f@<>()[\]\\,;:"]+$/;

type SmtpError = Error & { code?: string; originalCode?: string; responseCode?: number; command?: string; permanent?: boolean };

const TLS_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME|ALTNAME|ERR_TLS|ERR_SSL|SSL|TLS/i;

/** A nodemailer error as a safe result: codes and stage only, never the message or the reply text. */
export function classify(err: unknown): Extract<MailResult, { ok: false }> {
  const e = (err ?? {}) as SmtpError;
  const status = typeof e.responseCode === "number" && e.responseCode > 0 ? e.responseCode : undefined;
  const stage = typeof e.command === "string" ? e.command : undefined;
  const base = { ...(status !== undefined ? { smtpStatus: status } : {}), ...(stage !== undefined ? { stage } : {}) };
  const fail = (failure: MailFailure, permanent = false) => ({ ok: false as const, failure, permanent, ...base });
  switch (e.code) {
    case "EAUTH":
    case "ENOAUTH":
      return fail("auth_failed");
    case "ETLS":
      // The relay answered STARTTLS with an error (it offers none, or refuses it): unavailable; no reply: the handshake failed.
      return fail(status !== undefined ? "tls_unavailable" : "tls_failed");
    case "ETIMEDOUT":
    case "EABORT":
      return fail("timeout");
    case "EDNS":
    case "ECONNECTION":
      return fail(status !== undefined && status >= 400 && status < 500 ? "deferred" : "unreachable");
    case "ESOCKET":
      return fail(TLS_ERROR.test(`${e.originalCode ?? ""}`) ? "tls_failed" : "unreachable");
  }
  if (e.name === "TimeoutError" || e.name === "AbortError") return fail("timeout");
  if (status !== undefined && status >= 500) return fail(stage === "RCPT TO" ? "recipient_refused" : "rejected", e.permanent ?? status !== 503);
  if (status !== undefined && status >= 400) return fail("deferred");
  return fail("failed");
}
