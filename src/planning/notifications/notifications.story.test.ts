// The story of issue 14 (parts 1–4): a member links messenger_a with the bot's
// one-time code, verifies SMS with the code the gateway carried to a device,
// grants consent and sets project preferences; a due reminder of the canonical
// email schedule becomes one email (loopback SMTP), one DM (loopback Telegram-shaped
// bot API) and one SMS job (the gateway's queue, leased by a simulated device).
// Delivery history shows masked destinations only; no number, token, code or
// locator appears in any response or log line; opting out cancels a queued SMS;
// retry and reconcile never make a second logical reminder; out-of-scope is 404.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestEnv, MutableClock, type CallResult, type TestEnv } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startSmtpServer, startTelegramServer, startDiscordServer } from "../../../test/fakes/reminder-providers.ts";
import { upsertMember } from "../../platform/tenancy/members.ts";
import { createMailer } from "../../platform/mail/mailer.ts";
import { runJob } from "../../jobs/run-job.ts";
import { remindersJob } from "../../jobs/reminders.job.ts";
import { smsJobState } from "../sms-gateway/sms-gateway.service.ts";
import { planningChannelBindings, planningNotificationOutbox, planningReminderDeliveries } from "./notifications.tables.ts";

const TG_TOKEN = "7000001:AAtelegram-bot-token-secret";
const DC_TOKEN = "discord-bot-token-secret-xyz";
const PHONE = "+447700900123";
const CHAT_ID = 5550001234;
const DEVICE_ID = "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f";

const clock = new MutableClock(new Date("2026-03-02T09:00:00.000Z"));
// The relay offers STARTTLS (credentials are only ever sent inside TLS).
const smtp = await startSmtpServer({ tls: "starttls", accept: { username: "mailer", password: "mail-pass" } });
const tg = startTelegramServer(TG_TOKEN);
const dc = startDiscordServer(DC_TOKEN);
const logLines: string[] = [];
const capture = (level: string) => (msg: string, fields?: Record<string, unknown>) => void logLines.push(JSON.stringify({ level, msg, ...fields }));
const dashboardBodies: string[] = [];
const smsCodes: string[] = [];

let env: TestEnv;
let api: Kit & { close(): void };
let projectId: string;
let nativeToken: string;

const SMTP_URL = `smtp://mailer:mail-pass@127.0.0.1:${smtp.port}?from=reminders@plan.test`;

beforeAll(async () => {
  env = await createTestEnv(
    {
      SMTP_URL,
      MESSENGER_A_API_BASE: tg.url,
      MESSENGER_A_BOT_TOKEN: TG_TOKEN,
      MESSENGER_B_API_BASE: dc.url,
      MESSENGER_B_BOT_TOKEN: DC_TOKEN,
    },
    // The production mailer for that URL, told to trust the relay's self-signed test certificate.
    { clock, mailer: createMailer(SMTP_URL, { tls: smtp.trust }), log: { debug: capture("debug"), info: capture("info"), warn: capture("warn"), error: capture("error") } },
  );
  // Every dashboard response is kept, to prove no secret ever leaves in one.
  const call = env.call.bind(env);
  env.call = async (method, path, opts) => {
    const res = await call(method, path, opts);
    if (!path.includes("/sms-gateway/devices/") || path.includes("/native-token")) dashboardBodies.push(`${JSON.stringify(res.body)} ${[...res.headers].join(" ")}`);
    return res;
  };
  api = await partnerKit({ env, clock, family: "planning", users: { lead: "admin", ana: "operator", bob: "operator", outsider: "operator" } });
  await upsertMember(env.deps, { partnerId: "acme", userId: "ana", role: "operator", email: "ana@example.org" });
  await upsertMember(env.deps, { partnerId: "acme", userId: "lead", role: "admin", email: "lead@example.org" });
  const project = await api.create("/projects", { name: "Spring gala", timeZone: "Europe/London", members: [{ userId: "ana", role: "member" }, { userId: "bob", role: "member" }] });
  projectId = project.id;
  // An SMS gateway device of the project, online with a verified GB SIM.
  const issued = await api.post(`/projects/${projectId}/sms-gateway/devices/${DEVICE_ID}/native-token`, { action: "issue", policy: { allowedCountries: ["GB"] } });
  expect(issued.status).toBe(200);
  nativeToken = issued.body.nativeToken;
  await heartbeat();
});

afterAll(async () => {
  api.close();
  await smtp.stop();
  tg.stop();
  dc.stop();
});

async function device(method: string, path: string, body?: unknown): Promise<CallResult> {
  return env.call(method, `/api/planning/sms-gateway/devices/${DEVICE_ID}${path}`, { token: nativeToken, body });
}
async function heartbeat() {
  const r = await device("POST", "/heartbeat", { online: true, permissions: { sendSms: true, readPhoneState: true }, sims: [{ slot: 0, country: "GB", state: "active", verified: true, roaming: false }] });
  expect(r.status).toBe(200);
}
/** The device leases what is queued: the only place a number and a text leave the service. */
type Leased = { jobId: string; leaseId: string; phoneE164: string; text: string; payloadDigest: string; cancellationRevision: number };
async function lease(): Promise<Leased[]> {
  await heartbeat();
  const r = await device("POST", "/lease", { max: 10 });
  expect(r.status).toBe(200);
  return r.body.jobs;
}

/** The device rechecks the job, sends it and reports the outcome. */
async function sendFromDevice(job: Leased, clientMessageId: string, status: "sent" | "delivered") {
  const re = await device("POST", `/jobs/${job.jobId}/recheck`, { leaseId: job.leaseId, payloadDigest: job.payloadDigest, cancellationRevision: job.cancellationRevision });
  expect(re.body.proceed).toBe(true);
  const r = await device("POST", `/jobs/${job.jobId}/receipt`, { leaseId: job.leaseId, clientMessageId, status });
  expect(r.status).toBe(200);
}

const channels = (user = "ana") => api.as(user).get(`/projects/${projectId}/my-reminder-channels`);
const act = (channel: string, action: string, body: unknown = {}, user = "ana") => api.as(user).post(`/projects/${projectId}/my-reminder-channels/${channel}/${action}`, body);
const runReminders = async () => {
  const [outcome] = await runJob(env.deps, remindersJob, { partnerId: "acme" });
  expect(outcome?.status).toBe("succeeded");
};
const attempts = () => api.read((q) => q.select().from(planningNotificationOutbox));
const deliveries = () => api.read((q) => q.select().from(planningReminderDeliveries));

describe("personal reminder channels", () => {
  test("a new member has the email baseline ready and three unlinked optional channels, all masked", async () => {
    const r = await channels();
    expect(r.status).toBe(200);
    expect(r.body.channels.map((c: { channel: string; readiness: string }) => [c.channel, c.readiness])).toEqual([
      ["email", "ready"],
      ["messenger_a_dm", "unlinked"],
      ["messenger_b_dm", "unlinked"],
      ["sms", "unlinked"],
    ]);
    expect(r.body.channels[0].destination).toBe("a•••@example.org");
    expect(r.body.channels[3].sms).toEqual({ verification: "unverified", consent: "not_granted", countryCode: null, attemptsLeft: null, codeExpiresAt: null, consentAt: null });
  });

  test("messenger_a links with the one-time code the user sent to the bot", async () => {
    const linked = await act("messenger_a_dm", "link");
    expect(linked.status).toBe(200);
    const { code, deepLink } = linked.body.link;
    expect(deepLink).toBe(`https://t.me/planner_test_bot?start=${code}`);
    expect(linked.body.channel.readiness).toBe("pending");

    // Verify before the user pressed Start: the bot has no such chat yet.
    const early = await act("messenger_a_dm", "verify", { code });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("channel_unavailable");

    tg.userSends(CHAT_ID, `/start ${code}`);
    const verified = await act("messenger_a_dm", "verify", { code });
    expect(verified.status).toBe(200);
    expect(verified.body.channel).toMatchObject({ readiness: "ready", identityVersion: 1, destination: "chat ••34", reminders: false });
    // The code is single-use.
    expect((await act("messenger_a_dm", "verify", { code })).status).toBe(409);

    const pref = await act("messenger_a_dm", "preference", { reminders: true });
    expect(pref.body.channel.reminders).toBe(true);
    const test1 = await act("messenger_a_dm", "test");
    expect(test1.body.test).toEqual({ disposition: "sent", code: null });
    expect(tg.sent.at(-1)?.chatId).toBe(String(CHAT_ID));
  });

  test("sms verifies with the code the gateway carried, counts wrong codes, and needs consent", async () => {
    const notAllowed = await act("sms", "start", { phoneNumber: "+5511999990000", countryCode: "BR" });
    expect(notAllowed.status).toBe(409);
    expect(notAllowed.body.code).toBe("sms_policy_blocked");
    expect((await act("sms", "start", { phoneNumber: "+14155550100", countryCode: "GB" })).status).toBe(400);

    const started = await act("sms", "start", { phoneNumber: PHONE, countryCode: "GB" });
    expect(started.status).toBe(200);
    expect(started.body.channel).toMatchObject({ readiness: "pending", destination: "+••••••••••23", identityVersion: 1 });
    expect(started.body.channel.sms).toMatchObject({ verification: "pending", consent: "not_granted", attemptsLeft: 5 });

    const resend = await act("sms", "resend");
    expect(resend.status).toBe(429);

    const [job] = await lease();
    expect(job!.phoneE164).toBe(PHONE);
    const code = job!.text.match(/\b(\d{6})\b/)![1]!;
    smsCodes.push(code);
    await sendFromDevice(job!, "m-1", "delivered");

    const wrong = await act("sms", "verify", { code: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].path).toBe("/body/code");
    // The wrong attempt was kept although the request failed.
    expect((await channels()).body.channels[3].sms.attemptsLeft).toBe(4);

    expect((await act("sms", "test")).body.code).toBe("sms_verification_required");
    const verified = await act("sms", "verify", { code });
    expect(verified.status).toBe(200);
    expect(verified.body.channel).toMatchObject({ readiness: "pending", reason: "sms_consent_required" });
    expect(verified.body.channel.sms.verification).toBe("verified");
    expect((await act("sms", "test")).body.code).toBe("sms_consent_required");

    const consent = await act("sms", "consent");
    expect(consent.body.channel).toMatchObject({ readiness: "ready", reason: null });
    expect(consent.body.channel.sms.consent).toBe("granted");
    expect((await act("sms", "preference", { reminders: true })).body.channel.reminders).toBe(true);

    // The vault holds neither the number nor the code in clear.
    const [row] = await api.read((q) => q.select().from(planningChannelBindings).where(eq(planningChannelBindings.channel, "sms")));
    expect(JSON.stringify(row)).not.toContain("7700900123");
    expect(JSON.stringify(row)).not.toContain(code);
  });

  test("email has no actions and an unknown action of a channel is 400", async () => {
    expect((await act("email", "test")).status).toBe(400);
    const r = await act("messenger_a_dm", "start");
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe("/params/action");
  });
});

describe("fan-out, outbox and delivery history", () => {
  test("a due reminder of the email schedule becomes one email, one DM and one SMS job", async () => {
    await api.create(`/projects/${projectId}/reminders`, { title: "Load-in briefing", message: "Dock B at 10:00", audience: ["ana"], at: "2026-03-02T09:30:00.000Z" });
    await runReminders();
    const rows = await deliveries();
    expect(rows.map((d) => d.channel).sort()).toEqual(["email", "messenger_a_dm", "sms"]);
    expect(rows.every((d) => d.state === "scheduled" && d.recipientUserId === "ana")).toBe(true);
    expect(rows.find((d) => d.channel === "sms")!.logicalKey).toContain("|v1");
    expect(await attempts()).toHaveLength(0);

    // A second pass derives nothing new.
    await runReminders();
    expect(await deliveries()).toHaveLength(3);

    clock.advance(31 * 60_000);
    await runReminders();
    const sent = await attempts();
    expect(sent.map((a) => [a.channel, a.state]).sort()).toEqual([
      ["email", "sent"],
      ["messenger_a_dm", "sent"],
      ["sms", "queued"],
    ]);
    // What the real SMTP server on loopback received: one message, to Ana, with the
    // reminder's subject, authenticated as the relay's user, and no secret in it.
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.from).toBe("reminders@plan.test");
    expect(mail.to).toEqual(["ana@example.org"]);
    expect(mail.data).toMatch(/^Subject: Reminder: Load-in briefing\r$/m);
    expect(mail.data).toMatch(/^To: ana@example\.org\r$/m);
    expect(mail.data).toMatch(/^Message-ID: <[^@>]+@plan\.test>\r$/m);
    expect(mail.auth).toEqual({ username: "mailer", password: "mail-pass" });
    expect(mail.secure).toBe(true);
    expect(smtp.auths).toEqual([{ username: "mailer", secure: true }]);
    for (const secret of ["mail-pass", TG_TOKEN, DC_TOKEN, nativeToken]) expect(mail.data).not.toContain(secret);
    expect(tg.sent.at(-1)).toMatchObject({ chatId: String(CHAT_ID) });
    expect(tg.sent.at(-1)!.text).toContain("Load-in briefing");

    const [job] = await lease();
    expect(job!.text).toContain("Load-in briefing");
    await sendFromDevice(job!, "m-2", "delivered");
  });

  test("delivery history shows the attempts masked; reconcile reads the SMS outcome without a new reminder", async () => {
    const h = await api.as("ana").get(`/projects/${projectId}/delivery-history`);
    expect(h.status).toBe(200);
    expect(h.body.total).toBe(3);
    const byChannel = Object.fromEntries(h.body.items.map((a: { channel: string }) => [a.channel, a]));
    expect(byChannel.email).toMatchObject({ state: "sent", disposition: "sent", destination: "a•••@example.org", attemptNo: 1 });
    expect(byChannel.messenger_a_dm).toMatchObject({ state: "sent", destination: "chat ••34" });
    expect(byChannel.sms).toMatchObject({ state: "queued", destination: "+••••••••••23" });

    const rec = await api.as("ana").post(`/projects/${projectId}/notification-outbox/${byChannel.sms.id}/reconcile`, {});
    expect(rec.status).toBe(200);
    expect(rec.body).toMatchObject({ id: byChannel.sms.id, state: "delivered", disposition: "delivered" });
    // Finished attempts never change again.
    expect((await api.as("ana").post(`/projects/${projectId}/notification-outbox/${byChannel.sms.id}/reconcile`, {})).status).toBe(409);
    expect((await api.as("ana").post(`/projects/${projectId}/notification-outbox/${byChannel.email.id}/retry`, {})).status).toBe(409);
    expect(await deliveries()).toHaveLength(3);
    expect(await attempts()).toHaveLength(3);

    const filtered = await api.as("ana").get(`/projects/${projectId}/delivery-history`, { query: { channel: "sms,email", limit: 1 } });
    expect(filtered.body).toMatchObject({ total: 2, limit: 1, filters: { channel: ["sms", "email"] } });
    const next = await api.as("ana").get(`/projects/${projectId}/delivery-history`, { query: { channel: "sms,email", limit: 1, cursor: filtered.body.nextCursor } });
    expect(next.body.items).toHaveLength(1);
    expect(next.body.items[0].id).not.toBe(filtered.body.items[0].id);
  });

  test("a failed DM is retried as a new attempt of the same logical reminder, once per key", async () => {
    await api.create(`/projects/${projectId}/reminders`, { title: "Safety walk", audience: ["ana"], at: "2026-03-02T10:00:00.000Z" });
    await runReminders();
    tg.failNextSends(1);
    clock.advance(30 * 60_000);
    await runReminders();
    const dm = (await attempts()).find((a) => a.channel === "messenger_a_dm" && a.state === "failed")!;
    expect(dm.disposition).toBe("provider_failure");
    const before = (await deliveries()).length;

    const key = "retry-safety-walk";
    const retried = await api.as("ana").post(`/projects/${projectId}/notification-outbox/${dm.id}/retry`, {}, { idem: key });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ deliveryId: dm.deliveryId, attemptNo: 2, retryOf: dm.id, state: "pending" });
    const replay = await api.as("ana").post(`/projects/${projectId}/notification-outbox/${dm.id}/retry`, {}, { idem: key });
    expect(replay.headers.get("Idempotency-Replayed")).toBe("true");
    expect(replay.body.id).toBe(retried.body.id);
    const again = await api.as("ana").post(`/projects/${projectId}/notification-outbox/${dm.id}/retry`, {});
    expect(again.status).toBe(409);

    await runReminders();
    const all = await attempts();
    expect(all.filter((a) => a.deliveryId === dm.deliveryId).map((a) => [a.attemptNo, a.state])).toEqual(
      expect.arrayContaining([
        [1, "failed"],
        [2, "sent"],
      ]),
    );
    // The failed attempt itself was not changed by the retry.
    expect(all.find((a) => a.id === dm.id)).toEqual(dm);
    expect((await deliveries()).length).toBe(before);
  });

  test("opting out after an SMS is queued cancels it at the gateway and in the outbox", async () => {
    const sms = (await attempts()).find((a) => a.channel === "sms" && a.state === "queued")!;
    expect(sms).toBeDefined();
    const out = await act("sms", "opt-out");
    expect(out.status).toBe(200);
    expect(out.body.channel).toMatchObject({ readiness: "blocked", reason: "sms_consent_required" });
    expect(out.body.channel.sms.consent).toBe("withdrawn");

    const now = (await attempts()).find((a) => a.id === sms.id)!;
    expect(now).toMatchObject({ state: "cancelled", disposition: "cancelled_opted_out" });
    // The reminder whose SMS was already delivered stays as it was.
    const delivered = (await attempts()).find((a) => a.channel === "sms" && a.state === "delivered")!;
    expect((await deliveries()).find((d) => d.id === delivered.deliveryId)!.state).toBe("dispatched");
    expect((await deliveries()).find((d) => d.id === sms.deliveryId)).toMatchObject({ state: "cancelled", cancelReason: "opted_out" });
    const job = await api.inTenant((ctx) => smsJobState(ctx, sms.smsJobId!));
    expect(job.state).toBe("cancelled");
    expect(await lease()).toHaveLength(0);
    expect((await api.as("ana").post(`/projects/${projectId}/notification-outbox/${sms.id}/reconcile`, {})).status).toBe(409);
    expect((await act("sms", "opt-out")).status).toBe(409);

    // Later reminders get no SMS row while consent is withdrawn.
    await api.create(`/projects/${projectId}/reminders`, { title: "Doors open", audience: ["ana"], at: "2026-03-02T11:00:00.000Z" });
    await runReminders();
    const doors = (await deliveries()).filter((d) => d.dueAt === "2026-03-02T11:00:00.000Z");
    expect(doors.map((d) => d.channel).sort()).toEqual(["email", "messenger_a_dm"]);
  });
});

describe("scope and secrets", () => {
  test("out-of-scope projects and attempts are 404; a plain member sees only their own attempts", async () => {
    expect((await channels("outsider")).status).toBe(404);
    expect((await api.as("outsider").get(`/projects/${projectId}/delivery-history`)).status).toBe(404);
    expect((await act("sms", "start", { phoneNumber: PHONE, countryCode: "GB" }, "outsider")).status).toBe(404);
    const some = (await attempts())[0]!;
    expect((await api.as("outsider").post(`/projects/${projectId}/notification-outbox/${some.id}/retry`, {})).status).toBe(404);
    expect((await api.as("bob").post(`/projects/${projectId}/notification-outbox/${some.id}/reconcile`, {})).status).toBe(404);
    const bob = await api.as("bob").get(`/projects/${projectId}/delivery-history`);
    expect(bob.body.total).toBe(0);
    const lead = await api.as("lead").get(`/projects/${projectId}/delivery-history`);
    expect(lead.body.total).toBe((await attempts()).length);
    // Bob's own channels are his: ana's bindings never show.
    expect((await channels("bob")).body.channels[1].readiness).toBe("unlinked");
  });

  test("no number, token, code or locator in any response or log line", async () => {
    expect(dashboardBodies.length).toBeGreaterThan(20);
    const haystack = [...dashboardBodies, ...logLines].join("\n");
    for (const secret of [PHONE, PHONE.slice(1), "7700900123", TG_TOKEN, DC_TOKEN, String(CHAT_ID), "mail-pass", ...smsCodes]) {
      expect(haystack).not.toContain(secret);
    }
  });

  test("every route is in the OpenAPI document", async () => {
    const doc = await env.call("GET", "/api/planning/openapi.json");
    const paths = Object.keys(doc.body.paths);
    for (const p of [
      "/projects/{projectId}/destinations",
      "/projects/{projectId}/destinations/{destinationId}/test",
      "/projects/{projectId}/my-reminder-channels",
      "/projects/{projectId}/my-reminder-channels/{channel}/{action}",
      "/projects/{projectId}/delivery-history",
      "/projects/{projectId}/notification-outbox/{outboxId}/retry",
      "/projects/{projectId}/notification-outbox/{outboxId}/reconcile",
    ]) {
      expect(paths).toContain(p);
    }
  });
});
