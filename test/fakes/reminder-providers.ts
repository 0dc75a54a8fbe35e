// Loopback stand-ins for the reminder providers: an SMTP server (Bun.listen, the
// minimal ESMTP dialogue a client needs), a Telegram-Bot-API-shaped server and a
// Discord-API-shaped server (Bun.serve speaking their JSON). Each records what it
// received so tests assert on real traffic.

export interface SmtpMessage {
  from: string;
  to: string[];
  data: string;
  auth: string | null;
}

export function startSmtpServer() {
  const messages: SmtpMessage[] = [];
  type State = { buf: string; inData: boolean; from: string; to: string[]; lines: string[]; auth: string | null };
  const server = Bun.listen<State>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(s) {
        s.data = { buf: "", inData: false, from: "", to: [], lines: [], auth: null };
        s.write("220 fake.smtp ESMTP\r\n");
      },
      data(s, chunk) {
        const st = s.data;
        st.buf += chunk.toString();
        let i: number;
        while ((i = st.buf.indexOf("\r\n")) >= 0) {
          const line = st.buf.slice(0, i);
          st.buf = st.buf.slice(i + 2);
          if (st.inData) {
            if (line === ".") {
              st.inData = false;
              messages.push({ from: st.from, to: st.to, data: st.lines.join("\n"), auth: st.auth });
              st.lines = [];
              st.to = [];
              s.write("250 2.0.0 queued\r\n");
            } else st.lines.push(line.startsWith("..") ? line.slice(1) : line);
            continue;
          }
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === "EHLO" || verb === "HELO") s.write("250-fake.smtp\r\n250 AUTH PLAIN\r\n");
          else if (verb === "AUTH") {
            st.auth = Buffer.from(line.split(" ")[2] ?? "", "base64").toString("utf8");
            s.write("235 2.7.0 ok\r\n");
          } else if (verb === "MAIL") {
            st.from = line.replace(/^MAIL FROM:<(.*)>.*$/i, "$1");
            s.write("250 ok\r\n");
          } else if (verb === "RCPT") {
            const to = line.replace(/^RCPT TO:<(.*)>.*$/i, "$1");
            if (to.endsWith("@bounce.test")) s.write("550 5.1.1 no such mailbox\r\n");
            else {
              st.to.push(to);
              s.write("250 ok\r\n");
            }
          } else if (verb === "DATA") {
            st.inData = true;
            s.write("354 go ahead\r\n");
          } else if (verb === "QUIT") {
            s.write("221 bye\r\n");
            s.end();
          } else s.write("250 ok\r\n");
        }
      },
    },
  });
  return { port: server.port, messages, stop: () => server.stop(true) };
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
