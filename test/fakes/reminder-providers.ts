// Loopback stand-ins for the reminder providers: a real SMTP server (npm
// `smtp-server`), a Telegram-Bot-API-shaped server and a
// Discord-API-shaped server (Bun.serve speaking their JSON). Each records what it
// received so tests assert on real traffic.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SmtpMessage {
  from: string;
  to: string[];
  /** The message as received after DATA (headers and body, CRLF line ends, dots unstuffed). */
  data: string;
  /** The credentials the client authenticated with, if it did. */
  auth: { username: string; password: string } | null;
}

/**
 * A real SMTP server (npm `smtp-server`) on loopback. Authentication is optional;
 * plaintext AUTH is allowed because the production client speaks plain SMTP to a
 * loopback relay in these tests. Recipients at `bounce.test` are refused with 550.
 */
export async function startSmtpServer() {
  const messages: SmtpMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    hideSTARTTLS: true,
    logger: false,
    banner: "loopback test relay",
    onAuth(auth, _session, callback) {
      callback(null, { user: { username: auth.username ?? "", password: auth.password ?? "" } });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith("@bounce.test")) {
        const err: Error & { responseCode?: number } = new Error("5.1.1 no such mailbox");
        err.responseCode = 550;
        return callback(err);
      }
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
          auth: (session.user as SmtpMessage["auth"] | undefined) ?? null,
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
  return { port, messages, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export function startTelegramServer(token: string) {
  const sent: Array<{ chatId: string; text: string }> = [];
  const updates: unknown[] = [];
  const blockedChats = new Set<string>();
  let failSends = 0;
  let nextUpdate = 1;
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
          return Response.json({ ok: true, result: { id: 42, is_bot: true, first_name: "Planner", username: "planner_test_bot" } });
        case "getUpdates":
          return Response.json({ ok: true, result: updates });
        case "sendMessage": {
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
    stop: () => server.stop(true),
  };
}

export function startDiscordServer(token: string) {
  const messages: Array<{ channelId: string; content: string }> = [];
  const unknownUsers = new Set<string>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.headers.get("authorization") !== `Bot ${token}`) return Response.json({ message: "401: Unauthorized", code: 0 }, { status: 401 });
      const url = new URL(req.url);
      const body = (await req.json().catch(() => ({}))) as Record<string, unknown>;
      if (req.method === "POST" && url.pathname === "/api/v10/users/@me/channels") {
        const recipient = String(body.recipient_id);
        if (unknownUsers.has(recipient)) return Response.json({ message: "Unknown User", code: 10013 }, { status: 400 });
        return Response.json({ id: `8${recipient.slice(1)}`, type: 1, recipients: [{ id: recipient }] });
      }
      const m = url.pathname.match(/^\/api\/v10\/channels\/(\d+)\/messages$/);
      if (req.method === "POST" && m) {
        messages.push({ channelId: m[1]!, content: String(body.content) });
        return Response.json({ id: String(messages.length), channel_id: m[1], content: body.content });
      }
      return Response.json({ message: "404: Not Found", code: 0 }, { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/api/v10`, messages, unknownUsers, stop: () => server.stop(true) };
}
