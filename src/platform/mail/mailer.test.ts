// The mailer against a real SMTP server (npm `smtp-server`) on loopback: where
// credentials may travel (only inside TLS: STARTTLS required, or smtps://), what a
// relay without credentials gets (STARTTLS when offered, else plain), one pooled
// connection for a burst, and the safe reason of every failure (auth, TLS, refused
// connection, silent relay, 4xx/5xx replies) without the relay's text.
import { afterEach, describe, expect, test } from "bun:test";
import { createServer, type AddressInfo, type Server } from "node:net";
import { startSmtpServer, type SmtpServerOptions } from "../../../test/fakes/reminder-providers.ts";
import { createMailer, parseSmtpUrl, type Mailer, type MailerOptions } from "./mailer.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const CREDS = { username: "mailer", password: "s3cret-pass" };
const mail = (to = "ana@example.org") => ({ to, subject: "Reminder: load-in", text: "Dock B at 10:00" });

async function relay(opts: SmtpServerOptions) {
  const smtp = await startSmtpServer(opts);
  cleanups.push(() => smtp.stop());
  return smtp;
}
function mailer(url: string, opts?: MailerOptions): Mailer {
  const m = createMailer(url, opts);
  cleanups.push(() => m.close());
  return m;
}

describe("where credentials travel", () => {
  test("smtp:// with credentials: STARTTLS first, then AUTH, then the message, all encrypted", async () => {
    const smtp = await relay({ tls: "starttls", accept: CREDS });
    const m = mailer(`smtp://mailer:s3cret-pass@127.0.0.1:${smtp.port}?from=reminders@plan.test`, { tls: smtp.trust });
    const r = await m.send(mail());
    expect(r).toEqual({ ok: true, messageId: expect.stringMatching(/^<[^@]+@plan\.test>$/) });
    expect(smtp.auths).toEqual([{ username: "mailer", secure: true }]);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toMatchObject({ from: "reminders@plan.test", to: ["ana@example.org"], secure: true, auth: { username: "mailer", password: "s3cret-pass" } });
  });

  test("smtp:// with credentials and a relay that offers no STARTTLS: no AUTH, no message, tls_unavailable", async () => {
    const smtp = await relay({ tls: "plain" });
    const m = mailer(`smtp://mailer:s3cret-pass@127.0.0.1:${smtp.port}`);
    expect(await m.send(mail())).toEqual({ ok: false, failure: "tls_unavailable", permanent: false, smtpStatus: expect.any(Number), stage: "STARTTLS" });
    // The relay would have taken AUTH in clear text; the client never sent it.
    expect(smtp.auths).toEqual([]);
    expect(smtp.messages).toEqual([]);
  });

  test("smtp:// with credentials and a certificate nobody vouches for: no AUTH, tls_failed", async () => {
    const smtp = await relay({ tls: "starttls", accept: CREDS });
    const m = mailer(`smtp://mailer:s3cret-pass@127.0.0.1:${smtp.port}`);
    expect(await m.send(mail())).toMatchObject({ ok: false, failure: "tls_failed", permanent: false });
    expect(smtp.auths).toEqual([]);
    expect(smtp.messages).toEqual([]);
  });

  test("smtps:// speaks TLS from the first byte, on the certificate's name", async () => {
    const smtp = await relay({ tls: "implicit", accept: CREDS });
    const good = mailer(`smtps://mailer:s3cret-pass@127.0.0.1:${smtp.port}?from=reminders@plan.test`, { tls: smtp.trust });
    expect(await good.send(mail())).toMatchObject({ ok: true });
    expect(smtp.auths).toEqual([{ username: "mailer", secure: true }]);
    expect(smtp.messages[0]).toMatchObject({ to: ["ana@example.org"], secure: true });
    // The same relay under another name does not verify: nothing is sent.
    const wrongName = mailer(`smtps://mailer:s3cret-pass@127.0.0.1:${smtp.port}`, { tls: { ca: smtp.trust.ca, servername: "other.test" } });
    expect(await wrongName.send(mail())).toMatchObject({ ok: false, failure: "tls_failed" });
    expect(smtp.auths).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
  });

  test("a wrong password is auth_failed (535 at AUTH PLAIN), inside TLS", async () => {
    const smtp = await relay({ tls: "starttls", accept: CREDS });
    const m = mailer(`smtp://mailer:wrong@127.0.0.1:${smtp.port}`, { tls: smtp.trust });
    expect(await m.send(mail())).toEqual({ ok: false, failure: "auth_failed", permanent: false, smtpStatus: 535, stage: "AUTH PLAIN" });
    expect(smtp.auths).toEqual([{ username: "mailer", secure: true }]);
    expect(smtp.messages).toEqual([]);
  });
});

describe("a relay without credentials", () => {
  test("gets STARTTLS when it offers it", async () => {
    const smtp = await relay({ tls: "starttls" });
    const m = mailer(`smtp://127.0.0.1:${smtp.port}`, { tls: smtp.trust });
    expect(await m.send(mail())).toMatchObject({ ok: true, messageId: expect.stringMatching(/@localhost>$/) });
    expect(smtp.messages[0]).toMatchObject({ from: "reminders@localhost", secure: true, auth: null });
  });

  test("gets the message in plain text when it offers no STARTTLS", async () => {
    const smtp = await relay({ tls: "plain" });
    const m = mailer(`smtp://127.0.0.1:${smtp.port}`);
    expect(await m.send(mail())).toMatchObject({ ok: true });
    expect(smtp.messages[0]).toMatchObject({ secure: false, auth: null });
  });
});

test("a burst of reminders shares one pooled connection and one AUTH", async () => {
  const smtp = await relay({ tls: "starttls", accept: CREDS });
  const m = mailer(`smtp://mailer:s3cret-pass@127.0.0.1:${smtp.port}?from=reminders@plan.test`, { tls: smtp.trust });
  for (let i = 0; i < 5; i++) expect(await m.send(mail(`crew${i}@example.org`))).toMatchObject({ ok: true });
  expect(smtp.messages.map((x) => x.to[0])).toEqual(["crew0@example.org", "crew1@example.org", "crew2@example.org", "crew3@example.org", "crew4@example.org"]);
  expect(smtp.connections).toBe(1);
  expect(smtp.auths).toHaveLength(1);
  // Message-IDs are unique per message.
  expect(new Set(smtp.messages.map((x) => x.data.match(/^Message-ID: (.+)\r$/m)?.[1])).size).toBe(5);
});

describe("failures as safe reasons", () => {
  test("the relay refuses the mailbox (550 at RCPT TO): recipient_refused, permanent; 451: deferred", async () => {
    const smtp = await relay({ tls: "plain" });
    const m = mailer(`smtp://127.0.0.1:${smtp.port}`);
    expect(await m.send(mail("old@bounce.test"))).toEqual({ ok: false, failure: "recipient_refused", permanent: true, smtpStatus: 550, stage: "RCPT TO" });
    expect(await m.send(mail("busy@defer.test"))).toEqual({ ok: false, failure: "deferred", permanent: false, smtpStatus: 451, stage: "RCPT TO" });
    // The pool is still usable afterwards.
    expect(await m.send(mail())).toMatchObject({ ok: true });
    expect(smtp.messages.map((x) => x.to)).toEqual([["ana@example.org"]]);
  });

  test("a recipient that is not one plain address is refused before any connection, never split into several", async () => {
    const smtp = await relay({ tls: "plain" });
    const m = mailer(`smtp://127.0.0.1:${smtp.port}`);
    for (const to of ["ana@example.org, spy@evil.test", "ana@example.org\r\nRCPT TO:<spy@evil.test>", "Ana <ana@example.org>", "ana", ""]) {
      expect(await m.send(mail(to))).toEqual({ ok: false, failure: "recipient_invalid", permanent: true });
    }
    expect(smtp.connections).toBe(0);
    expect(smtp.messages).toEqual([]);
    // Non-ASCII addresses are addresses.
    expect(await m.send(mail("jörg@müller.example"))).toMatchObject({ ok: true });
  });

  test("nobody listens: unreachable", async () => {
    const smtp = await relay({});
    const port = smtp.port;
    await smtp.stop();
    const m = mailer(`smtp://127.0.0.1:${port}`);
    expect(await m.send(mail())).toMatchObject({ ok: false, failure: "unreachable", permanent: false, stage: "CONN" });
  });

  test("a relay that accepts and never greets holds the sender only for the greeting timeout", async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => silent.close(() => r())));
    const sockets: Array<{ destroy(): void }> = [];
    silent.on("connection", (s) => sockets.push(s));
    cleanups.push(() => sockets.forEach((s) => s.destroy()));
    const m = mailer(`smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeouts: { greetingMs: 300 } });
    const started = performance.now();
    expect(await m.send(mail())).toMatchObject({ ok: false, failure: "timeout", permanent: false });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  test("a relay that stalls mid-conversation is cut off at the message deadline", async () => {
    // Greets and answers EHLO, then never answers MAIL FROM.
    const stalling: Server = createServer((s) => {
      s.write("220 stall.test ESMTP\r\n");
      s.on("data", (d) => {
        if (/^EHLO/i.test(d.toString())) s.write("250 stall.test\r\n");
      });
    });
    await new Promise<void>((r) => stalling.listen(0, "127.0.0.1", r));
    const sockets: Array<{ destroy(): void }> = [];
    stalling.on("connection", (s) => sockets.push(s));
    cleanups.push(() => new Promise<void>((r) => stalling.close(() => r())));
    cleanups.push(() => sockets.forEach((s) => s.destroy()));
    const m = mailer(`smtp://127.0.0.1:${(stalling.address() as AddressInfo).port}`, { timeouts: { messageMs: 400 } });
    const started = performance.now();
    expect(await m.send(mail())).toMatchObject({ ok: false, failure: "timeout", permanent: false });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  test("no SMTP_URL, or not an smtp URL: unconfigured, nothing opened", async () => {
    for (const url of [undefined, "", "http://mail.example.org", "not a url"]) {
      const m = createMailer(url);
      expect(m.configured).toBe(false);
      expect(await m.send(mail())).toEqual({ ok: false, failure: "unconfigured", permanent: true });
    }
  });
});

test("SMTP_URL parsing: ports, TLS mode, decoded credentials, sender", () => {
  expect(parseSmtpUrl("smtp://relay.example.org")).toEqual({ host: "relay.example.org", port: 25, secure: false, user: undefined, pass: undefined, from: "reminders@localhost" });
  expect(parseSmtpUrl("smtps://us%40er:p%3Ass@relay.example.org?from=plan@example.org")).toEqual({ host: "relay.example.org", port: 465, secure: true, user: "us@er", pass: "p:ss", from: "plan@example.org" });
  expect(parseSmtpUrl("smtp://u:p@[::1]:587")).toMatchObject({ host: "::1", port: 587, secure: false });
  expect(parseSmtpUrl("https://relay.example.org")).toBeNull();
});
