// Reminder e-mail as a real mail server receives it (issue 19 item 6): a reminder
// whose title is not ASCII arrives with a Message-ID on the sender's domain, an RFC
// 2047 subject that decodes to the original and a UTF-8 body; credentials in SMTP_URL
// never travel in clear text: a relay that offers no STARTTLS never sees AUTH (the
// attempt is recorded as provider_failure), one that offers it sees AUTH only inside
// TLS, and smtps:// speaks TLS from the first byte. No log line names the recipient
// or the password.
import { afterEach, describe, expect, test } from "bun:test";
import { createTestEnv, MutableClock, type TestEnv } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startSmtpServer, type SmtpServerOptions } from "../../../test/fakes/reminder-providers.ts";
import { upsertMember } from "../../platform/tenancy/members.ts";
import { createMailer } from "../../platform/mail/mailer.ts";
import { runJob } from "../../jobs/run-job.ts";
import { remindersJob } from "../../jobs/reminders.job.ts";
import { eq } from "drizzle-orm";
import { planningAudit } from "../audit/audit.tables.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  env: TestEnv;
  api: Kit;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  projectId: string;
  clock: MutableClock;
}

/**
 * A partner with lead and Ana (ana@example.org), a project, and SMTP_URL pointing at a
 * loopback relay. A relay with TLS presents the self-signed `hooks.test` certificate: the
 * mailer is the production one (built from the same URL) told to trust it.
 */
async function setup(server: SmtpServerOptions, smtpUrl: (port: number) => string): Promise<Setup> {
  const smtp = await startSmtpServer(server);
  cleanups.push(() => smtp.stop());
  const clock = new MutableClock(new Date("2026-05-04T07:00:00.000Z"));
  const url = smtpUrl(smtp.port);
  const env = await createTestEnv({ SMTP_URL: url }, { clock, ...(server.tls && server.tls !== "plain" ? { mailer: createMailer(url, { tls: smtp.trust }) } : {}) });
  cleanups.push(() => env.close());
  const api = await partnerKit({ env, clock, family: "planning", users: { lead: "admin", ana: "operator" } });
  cleanups.push(() => api.close());
  await upsertMember(env.deps, { partnerId: "acme", userId: "ana", role: "operator", email: "ana@example.org" });
  const projectId = (await api.create("/projects", { name: "Umzug Lager Süd", timeZone: "Europe/Berlin", members: [{ userId: "ana", role: "member" }] })).id;
  return { env, api, smtp, projectId, clock };
}

/** The reminders job for partner acme, once before the due time and once after it. */
async function remindAnaAt(s: Setup, title: string, message: string) {
  await s.api.create(`/projects/${s.projectId}/reminders`, { title, message, audience: ["ana"], at: "2026-05-04T07:30:00.000Z" });
  expect((await runJob(s.env.deps, remindersJob, { partnerId: "acme" }))[0]?.status).toBe("succeeded");
  s.clock.advance(31 * 60_000);
  expect((await runJob(s.env.deps, remindersJob, { partnerId: "acme" }))[0]?.status).toBe("succeeded");
}

/** One header of a raw message, unfolded (RFC 5322 §2.2.3). */
function header(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]/g, " ");
  const line = head.split("\r\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** Decodes RFC 2047 encoded words (UTF-8, B or Q); whitespace between adjacent encoded words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, enc: string, text: string) => `\u0000${Buffer.from(enc.toUpperCase() === "B" ? Buffer.from(text, "base64") : qBytes(text)).toString("hex")}\u0000`)
    .replace(/(?:\u0000[0-9a-f]*\u0000)+/g, (run) => Buffer.from(run.replaceAll("\u0000", ""), "hex").toString("utf8"));
}
function qBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "=") {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text[i] === "_" ? 0x20 : text.charCodeAt(i));
  }
  return Buffer.from(bytes);
}

/** The text body, decoded by its Content-Transfer-Encoding. */
function body(raw: string): string {
  const text = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  const cte = (header(raw, "Content-Transfer-Encoding") ?? "7bit").toLowerCase();
  if (cte === "base64") return Buffer.from(text.replace(/\s+/g, ""), "base64").toString("utf8");
  if (cte === "quoted-printable") return qp(text);
  return text;
}
function qp(text: string): string {
  const soft = text.replace(/=\r\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

describe("a reminder e-mail as the relay receives it", () => {
  test("a non-ASCII title arrives as an RFC 2047 subject, with a Message-ID on the sender's domain and a UTF-8 body", async () => {
    const s = await setup({}, (port) => `smtp://127.0.0.1:${port}?from=reminders@plan.test`);
    await remindAnaAt(s, "Überprüfung – 10:00 🚚", "Rampe 3, bitte pünktlich");

    expect(s.smtp.messages).toHaveLength(1);
    const mail = s.smtp.messages[0]!;
    expect(mail.from).toBe("reminders@plan.test");
    expect(mail.to).toEqual(["ana@example.org"]);
    // Every header line is 7-bit: the subject travels as encoded words and decodes to the original.
    const head = mail.data.slice(0, mail.data.indexOf("\r\n\r\n"));
    expect(/^[\x00-\x7f]*$/.test(head)).toBe(true);
    const subject = header(mail.data, "Subject")!;
    expect(subject).toMatch(/^=\?UTF-8\?[BQ]\?/i);
    expect(decodeWords(subject)).toBe("Reminder: Überprüfung – 10:00 🚚");
    expect(header(mail.data, "Message-ID")).toMatch(/^<[^<>@\s]+@plan\.test>$/);
    expect(header(mail.data, "From")).toBe("reminders@plan.test");
    expect(header(mail.data, "To")).toBe("ana@example.org");
    expect(header(mail.data, "Date")).toBe("Mon, 04 May 2026 07:31:00 +0000");
    expect(header(mail.data, "Content-Type")).toBe("text/plain; charset=utf-8");
    // Lines end in CRLF on the wire; the last one too.
    expect(body(mail.data).replaceAll("\r\n", "\n")).toBe("Überprüfung – 10:00 🚚\nRampe 3, bitte pünktlich\nDue 2026-05-04T07:30:00.000Z\n");

    const history = await s.api.as("ana").get(`/projects/${s.projectId}/delivery-history`);
    expect(history.body.items.map((a: { channel: string; state: string; disposition: string }) => [a.channel, a.state, a.disposition])).toEqual([["email", "sent", "sent"]]);
  });
});

describe("credentials never travel in clear text", () => {
  test("a relay that offers no STARTTLS never sees AUTH; the destination test and the reminder record provider_failure", async () => {
    const s = await setup({ tls: "plain" }, (port) => `smtp://mailer:mail-pass@127.0.0.1:${port}?from=reminders@plan.test`);
    const dest = await s.api.create(`/projects/${s.projectId}/destinations`, { kind: "email", name: "Crew mailbox", target: "crew@lager.test" });
    const tested = await s.api.post(`/projects/${s.projectId}/destinations/${dest.id}/test`, {});
    expect(tested.status).toBe(200);
    expect(tested.body.lastTestDisposition).toBe("provider_failure");

    await remindAnaAt(s, "Inventur", "Halle 2");
    const history = await s.api.as("ana").get(`/projects/${s.projectId}/delivery-history`);
    expect(history.body.items.map((a: { channel: string; state: string; disposition: string }) => [a.channel, a.state, a.disposition])).toEqual([["email", "failed", "provider_failure"]]);

    // The relay would have accepted AUTH in clear text: the client never offered it, and sent nothing.
    expect(s.smtp.auths).toEqual([]);
    expect(s.smtp.messages).toEqual([]);
    // The failure is logged with its safe reason only: no recipient, no password (the harness scans for it).
    const failures = s.env.logLines.filter((l) => l.includes("email not sent"));
    expect(failures).toHaveLength(2);
    for (const line of failures) expect(JSON.parse(line)).toMatchObject({ level: "warn", reason: "tls_unavailable" });
    for (const line of s.env.logLines) {
      expect(line).not.toContain("crew@lager.test");
      expect(line).not.toContain("ana@example.org");
    }
  });

  test("a relay that offers STARTTLS sees AUTH only inside TLS", async () => {
    const s = await setup({ tls: "starttls", accept: { username: "mailer", password: "mail-pass" } }, (port) => `smtp://mailer:mail-pass@127.0.0.1:${port}?from=reminders@plan.test`);
    await remindAnaAt(s, "Inventur", "Halle 2");
    expect(s.smtp.auths).toEqual([{ username: "mailer", secure: true }]);
    expect(s.smtp.messages).toHaveLength(1);
    expect(s.smtp.messages[0]).toMatchObject({ to: ["ana@example.org"], secure: true, auth: { username: "mailer", password: "mail-pass" } });
  });

  test("smtps:// speaks TLS from the first byte", async () => {
    const s = await setup({ tls: "implicit", accept: { username: "mailer", password: "mail-pass" } }, (port) => `smtps://mailer:mail-pass@127.0.0.1:${port}?from=reminders@plan.test`);
    await remindAnaAt(s, "Inventur", "Halle 2");
    expect(s.smtp.auths).toEqual([{ username: "mailer", secure: true }]);
    expect(s.smtp.messages).toHaveLength(1);
    expect(s.smtp.messages[0]).toMatchObject({ to: ["ana@example.org"], secure: true });
  });
});

describe("a slow relay holds no write lock", () => {
  test("while a destination test waits 2 s for the relay's greeting, other writes of the partner answer at once; the test records sent, and its key replays", async () => {
    const s = await setup({ greetingDelayMs: 2000 }, (port) => `smtp://127.0.0.1:${port}?from=reminders@plan.test`);
    const dest = await s.api.create(`/projects/${s.projectId}/destinations`, { kind: "email", name: "Crew mailbox", target: "crew@lager.test" });
    const started = performance.now();
    const testing = s.api.post(`/projects/${s.projectId}/destinations/${dest.id}/test`, {}, { idem: "slow-relay-test" });
    // The send is under way: the relay accepted the connection and has not greeted yet.
    while (s.smtp.connections === 0) await Bun.sleep(10);
    const writes: number[] = [];
    for (const name of ["Second project", "Third project"]) {
      const t = performance.now();
      const made = await s.api.post("/projects", { name, timeZone: "Europe/Berlin" });
      writes.push(performance.now() - t);
      expect(made.status).toBe(201);
    }
    const t = performance.now();
    expect((await s.api.post(`/projects/${s.projectId}/destinations`, { kind: "email", name: "Office", target: "office@lager.test" })).status).toBe(201);
    writes.push(performance.now() - t);
    for (const ms of writes) expect(ms).toBeLessThan(300);
    expect(s.smtp.messages).toHaveLength(0);

    const tested = await testing;
    expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ id: dest.id, lastTestDisposition: "sent", lastTestAt: s.clock.now().toISOString(), version: dest.version + 1 });
    expect(s.smtp.messages.map((m) => m.to)).toEqual([["crew@lager.test"]]);
    // The same Idempotency-Key replays the first answer without a second message.
    const replay = await s.api.post(`/projects/${s.projectId}/destinations/${dest.id}/test`, {}, { idem: "slow-relay-test" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(tested.body);
    expect(s.smtp.messages).toHaveLength(1);
    const audit = await s.api.read((q) => q.select().from(planningAudit).where(eq(planningAudit.recordId, dest.id)));
    expect(audit.map((e) => e.action)).toEqual(["created", "tested"]);
  }, 20_000);
});
