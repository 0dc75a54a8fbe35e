// Loopback stand-ins for the reminder providers: a real SMTP server (npm
// `smtp-server`, plain, STARTTLS or implicit TLS), a Telegram-Bot-API-shaped server and a
// Discord-API-shaped server (Bun.serve speaking their JSON). Each records what it
// received so tests assert on real traffic.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { HOOKS_TEST } from "./tls-identities.ts";

export interface SmtpMessage {
  from: string;
  to: string[];
  /** The message as received after DATA (headers and body, CRLF line ends, dots unstuffed). */
  data: string;
  /** The credentials the client authenticated with, if it did. */
  auth: { username: string; password: string } | null;
  /** Whether the session was encrypted (STARTTLS or implicit TLS) when the message was sent. */
  secure: boolean;
}

export interface SmtpServerOptions {
  /**
   * `plain` (default): no TLS at all, STARTTLS is neither offered nor accepted; `starttls`: offers
   * STARTTLS with the `hooks.test` test certificate; `implicit`: TLS from the first byte (smtps).
   */
  tls?: "plain" | "starttls" | "implicit";
  /** The only credentials accepted (others: 535). Without it any credentials pass. */
  accept?: { username: string; password: string };
  /** A slow relay: the greeting (220) comes this long after the connection is accepted. */
  greetingDelayMs?: number;
}

/**
 * A real SMTP server (npm `smtp-server`) on loopback. Authentication is optional and
 * the server itself allows AUTH without TLS, so a test sees whether the client refuses
 * to send credentials in clear text. Recipients at `bounce.test` are refused with 550,
 * at `defer.test` with 451. `auths` records every AUTH the server received (and whether
 * the session was encrypted at that moment), `connections` counts connections; `trust`
 * is what a client needs to verify the server's certificate (`hooks.test`, self-signed)
 * while connecting to 127.0.0.1.
 */
export async function startSmtpServer(opts: SmtpServerOptions = {}) {
  const mode = opts.tls ?? "plain";
  const messages: SmtpMessage[] = [];
  const auths: Array<{ username: string; secure: boolean }> = [];
  let connections = 0;
  const server = new SMTPServer({
    secure: mode === "implicit",
    ...(mode === "plain" ? { disabledCommands: ["STARTTLS"] } : { key: HOOKS_TEST.key, cert: HOOKS_TEST.cert }),
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    // Idle pooled client connections must not hold a test's teardown for the default 30 s.
    closeTimeout: 200,
    banner: "loopback test relay",
    onConnect(_session, callback) {
      connections++;
      // smtp-server greets once this callback runs.
      if (opts.greetingDelayMs) setTimeout(() => callback(), opts.greetingDelayMs);
      else callback();
    },
    onAuth(auth, session, callback) {
      auths.push({ username: auth.username ?? "", secure: session.secure });
      if (opts.accept && (auth.username !== opts.accept.username || auth.password !== opts.accept.password)) {
        return callback(new Error("5.7.8 authentication failed"));
      }
      callback(null, { user: { username: auth.username ?? "", password: auth.password ?? "" } });
    },
    onRcptTo(address, _session, callback) {
      const refuse = (code: number, text: string) => {
        const err: Error & { responseCode?: number } = new Error(text);
        err.responseCode = code;
        callback(err);
      };
      if (address.address.endsWith("@bounce.test")) return refuse(550, "5.1.1 no such mailbox");
      if (address.address.endsWith("@defer.test")) return refuse(451, "4.3.0 try again later");
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", () => {
        const from = session.envelope.mailFrom;
        messages.push({
          from: from ? from.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString("utf8"),
          auth: (session.user as SmtpMessage["auth"] | false | undefined) || null,
          secure: session.secure,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    auths,
    /** TCP connections accepted so far (a pooled client reuses one for a burst). */
    get connections() {
      return connections;
    },
    trust: { ca: [HOOKS_TEST.cert], servername: HOOKS_TEST.serverName },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A slow provider API, per call: `hold(call)` counts the call's arrival and answers after
 * the delay set for it (0: at once); `delay` sets it for every later call, `arrived` counts.
 */
function heldCalls<Call extends string>() {
  const delayMs = new Map<Call, number>();
  const arrivals = new Map<Call, number>();
  return {
    async hold(call: Call): Promise<void> {
      arrivals.set(call, (arrivals.get(call) ?? 0) + 1);
      const ms = delayMs.get(call) ?? 0;
      if (ms > 0) await Bun.sleep(ms);
    },
    delay(call: Call, ms: number): void {
      delayMs.set(call, ms);
    },
    arrived: (call: Call): number => arrivals.get(call) ?? 0,
  };
}

type TelegramMethod = "getMe" | "getUpdates" | "sendMessage";

export function startTelegramServer(token: string) {
  const sent: Array<{ chatId: string; text: string }> = [];
  const updates: unknown[] = [];
  const blockedChats = new Set<string>();
  let failSends = 0;
  let nextUpdate = 1;
  /** A slow Bot API: a method answers this long after its request arrived. */
  const { hold, delay, arrived } = heldCalls<TelegramMethod>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const m = url.pathname.match(/^\/bot([^/]+)\/(\w+)$/);
      if (!m || m[1] !== token) return Response.json({ ok: false, error_code: 401, description: "Unauthorized" }, { status: 401 });
      const body = req.method === "POST" ? ((await req.json().catch(() => ({}))) as Record<string, unknown>) : {};
      switch (m[2]) {
        case "getMe":
          await hold("getMe");
          return Response.json({ ok: true, result: { id: 42, is_bot: true, first_name: "Planner", username: "planner_test_bot" } });
        case "getUpdates":
          await hold("getUpdates");
          return Response.json({ ok: true, result: updates });
        case "sendMessage": {
          await hold("sendMessage");
          const chatId = String(body.chat_id);
          if (failSends > 0) {
            failSends--;
            return Response.json({ ok: false, error_code: 502, description: "Bad Gateway" }, { status: 502 });
          }
          if (blockedChats.has(chatId)) return Response.json({ ok: false, error_code: 403, description: `Forbidden: bot was blocked by the user ${chatId}` }, { status: 403 });
          sent.push({ chatId, text: String(body.text) });
          return Response.json({ ok: true, result: { message_id: sent.length, chat: { id: Number(chatId), type: "private" }, text: body.text } });
        }
      }
      return Response.json({ ok: false, error_code: 404, description: "Not Found" }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    sent,
    blockedChats,
    /** The user pressed Start in the bot with this payload (or typed text) from this private chat. */
    userSends(chatId: number, text: string) {
      updates.push({ update_id: nextUpdate++, message: { message_id: nextUpdate, date: 0, chat: { id: chatId, type: "private" }, from: { id: chatId, is_bot: false }, text } });
    },
    failNextSends(n: number) {
      failSends = n;
    },
    /** Every later sendMessage answers `ms` after it arrived (0: at once). */
    delaySends(ms: number) {
      delay("sendMessage", ms);
    },
    /** sendMessage requests received so far (answered or still waiting). */
    get sendsArrived() {
      return arrived("sendMessage");
    },
    /** Every later call of `method` answers `ms` after it arrived (0: at once). */
    delay,
    /** Calls of `method` received so far (answered or still waiting). */
    arrived,
    stop: () => server.stop(true),
  };
}

type DiscordCall = "createDm" | "send";

export function startDiscordServer(token: string) {
  const messages: Array<{ channelId: string; content: string }> = [];
  const unknownUsers = new Set<string>();
  /** A slow API: opening a DM (`createDm`) or posting a message (`send`) answers this long after it arrived. */
  const { hold, delay, arrived } = heldCalls<DiscordCall>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.headers.get("authorization") !== `Bot ${token}`) return Response.json({ message: "401: Unauthorized", code: 0 }, { status: 401 });
      const url = new URL(req.url);
      const body = (await req.json().catch(() => ({}))) as Record<string, unknown>;
      if (req.method === "POST" && url.pathname === "/api/v10/users/@me/channels") {
        await hold("createDm");
        const recipient = String(body.recipient_id);
        if (unknownUsers.has(recipient)) return Response.json({ message: "Unknown User", code: 10013 }, { status: 400 });
        return Response.json({ id: `8${recipient.slice(1)}`, type: 1, recipients: [{ id: recipient }] });
      }
      const m = url.pathname.match(/^\/api\/v10\/channels\/(\d+)\/messages$/);
      if (req.method === "POST" && m) {
        await hold("send");
        messages.push({ channelId: m[1]!, content: String(body.content) });
        return Response.json({ id: String(messages.length), channel_id: m[1], content: body.content });
      }
      return Response.json({ message: "404: Not Found", code: 0 }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/api/v10`,
    messages,
    unknownUsers,
    /** Every later call answers `ms` after it arrived (0: at once). */
    delay,
    /** Calls received so far (answered or still waiting). */
    arrived,
    stop: () => server.stop(true),
  };
}
