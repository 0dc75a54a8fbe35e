// The rules around the story: write-only destinations, the messenger_b (Discord
// API shape) link, challenge expiry and attempt limits, and every way stale
// reminder work is cancelled (relink, unlink, revocation, a replaced deadline, a
// terminal work state, a closed project) while the logical key follows the
// identity version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestEnv, MutableClock, type TestEnv } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startSmtpServer, startTelegramServer, startDiscordServer } from "../../../test/fakes/reminder-providers.ts";
import { upsertMember } from "../../platform/tenancy/members.ts";
import { runJob } from "../../jobs/run-job.ts";
import { remindersJob } from "../../jobs/reminders.job.ts";
import { planningReminderDeliveries } from "./notifications.tables.ts";

const TG_TOKEN = "7000002:AArules-telegram-token";
const DC_TOKEN = "rules-discord-token";
const clock = new MutableClock(new Date("2026-04-01T08:00:00.000Z"));
const smtp = await startSmtpServer();
const tg = startTelegramServer(TG_TOKEN);
const dc = startDiscordServer(DC_TOKEN);

let env: TestEnv;
let api: Kit & { close(): void };
let projectId: string;
let otherProjectId: string;

beforeAll(async () => {
  env = await createTestEnv(
    { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MESSENGER_A_API_BASE: tg.url, MESSENGER_A_BOT_TOKEN: TG_TOKEN, MESSENGER_B_API_BASE: dc.url, MESSENGER_B_BOT_TOKEN: DC_TOKEN },
    { clock },
  );
  api = await partnerKit({ env, clock, family: "planning", users: { lead: "admin", ana: "operator" } });
  await upsertMember(env.deps, { partnerId: "acme", userId: "ana", role: "operator", email: "ana@example.org" });
  projectId = (await api.create("/projects", { name: "Harbour festival", timeZone: "Europe/Berlin", members: [{ userId: "ana", role: "member" }] })).id;
  otherProjectId = (await api.create("/projects", { name: "Other", timeZone: "Europe/Berlin" })).id;
});

afterAll(async () => {
  api.close();
  await smtp.stop();
  tg.stop();
  dc.stop();
});

const act = (channel: string, action: string, body: unknown = {}) => api.as("ana").post(`/projects/${projectId}/my-reminder-channels/${channel}/${action}`, body);
const runReminders = async () => {
  const [outcome] = await runJob(env.deps, remindersJob, { partnerId: "acme" });
  expect(outcome?.status).toBe("succeeded");
};
const deliveries = () => api.read((q) => q.select().from(planningReminderDeliveries));
let chat = 7100000001;
async function linkMessengerA(): Promise<number> {
  const { code } = (await act("messenger_a_dm", "link")).body.link;
  const chatId = chat++;
  tg.userSends(chatId, `/start ${code}`);
  const r = await act("messenger_a_dm", "verify", { code });
  expect(r.status).toBe(200);
  return chatId;
}

describe("destinations", () => {
  test("are write-only: the target is stored sealed and only ever returned masked", async () => {
    const created = await api.post(`/projects/${projectId}/destinations`, { kind: "email", name: "Crew mailbox", target: "crew@harbour.test" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: "email", name: "Crew mailbox", target: "c•••@harbour.test", lastTestAt: null, version: 1 });
    expect(created.headers.get("location")).toContain(`/destinations/${created.body.id}`);
    expect(JSON.stringify(created.body)).not.toContain("crew@harbour.test");

    const tested = await api.post(`/projects/${projectId}/destinations/${created.body.id}/test`, {});
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ lastTestDisposition: "sent", version: 2 });
    expect(smtp.messages.at(-1)!.to).toEqual(["crew@harbour.test"]);

    const bounce = await api.create(`/projects/${projectId}/destinations`, { kind: "email", name: "Old list", target: "old@bounce.test" });
    expect((await api.post(`/projects/${projectId}/destinations/${bounce.id}/test`, {})).body.lastTestDisposition).toBe("destination_unavailable");

    const channel = await api.create(`/projects/${projectId}/destinations`, { kind: "messenger_b_channel", name: "Ops channel", target: "123456789012345678" });
    expect(channel.target).toBe("channel ••78");
    await api.post(`/projects/${projectId}/destinations/${channel.id}/test`, {});
    expect(dc.messages.at(-1)!.channelId).toBe("123456789012345678");
  });

  test("need planning_admin, a target of their kind, and the destination's own project", async () => {
    expect((await api.as("ana").post(`/projects/${projectId}/destinations`, { kind: "email", name: "Mine", target: "me@harbour.test" })).status).toBe(403);
    const bad = await api.post(`/projects/${projectId}/destinations`, { kind: "messenger_a_group", name: "Group", target: "not a chat" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("/body/target");
    const d = await api.create(`/projects/${projectId}/destinations`, { kind: "messenger_a_group", name: "Group", target: "-100200300" });
    expect((await api.post(`/projects/${otherProjectId}/destinations/${d.id}/test`, {})).status).toBe(404);
  });
});

describe("messenger_b and challenges", () => {
  test("messenger_b links by a code the bot sends in a direct message", async () => {
    dc.unknownUsers.add("999999999999999999");
    const unknown = await act("messenger_b_dm", "link", { accountId: "999999999999999999" });
    expect(unknown.status).toBe(409);
    expect(unknown.body.code).toBe("channel_unavailable");
    expect((await act("messenger_b_dm", "link")).status).toBe(400);

    const linked = await act("messenger_b_dm", "link", { accountId: "112233445566778899" });
    expect(linked.status).toBe(200);
    expect(linked.body.link).toBeNull();
    const sent = dc.messages.at(-1)!;
    expect(sent.channelId).toBe("812233445566778899");
    const code = sent.content.match(/code is ([A-Z0-9]+)/)![1]!;
    expect((await act("messenger_b_dm", "verify", { code: "WRONGCODE1" })).status).toBe(400);
    const verified = await act("messenger_b_dm", "verify", { code });
    expect(verified.body.channel).toMatchObject({ readiness: "ready", destination: "dm ••99", identityVersion: 1 });
  });

  test("a link code expires after 15 minutes", async () => {
    const { code } = (await act("messenger_a_dm", "link")).body.link;
    clock.advance(16 * 60_000);
    tg.userSends(7000000999, `/start ${code}`);
    const late = await act("messenger_a_dm", "verify", { code });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("challenge_expired");
    // The expiry was recorded: the code is gone.
    expect((await act("messenger_a_dm", "verify", { code })).body.code).toBe("state_conflict");
  });

  test("five wrong SMS codes block the verification", async () => {
    const started = await act("sms", "start", { phoneNumber: "+4915112345678", countryCode: "DE" });
    expect(started.status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await act("sms", "verify", { code: `00000${i}` })).status).toBe(400);
    const last = await act("sms", "verify", { code: "000009" });
    expect(last.status).toBe(429);
    const view = (await api.as("ana").get(`/projects/${projectId}/my-reminder-channels`)).body.channels[3];
    expect(view).toMatchObject({ readiness: "blocked", reason: "attempts_exhausted" });
    expect(view.sms.verification).toBe("blocked");
    const unlinked = await act("sms", "unlink");
    expect(unlinked.body.channel).toMatchObject({ readiness: "unlinked", destination: null, sms: { verification: "unverified", consent: "not_granted" } });
  });
});

describe("stale work is cancelled", () => {
  test("relinking cancels the old identity's reminders; the new identity version makes new logical keys", async () => {
    await linkMessengerA();
    await act("messenger_a_dm", "preference", { reminders: true });
    const reminder = await api.create(`/projects/${projectId}/reminders`, { title: "Crew call", audience: ["ana"], at: new Date(clock.now().getTime() + 3600_000).toISOString() });
    await runReminders();
    const before = (await deliveries()).filter((d) => d.reminderId === reminder.id && d.channel === "messenger_a_dm");
    expect(before).toHaveLength(1);
    const version = before[0]!.identityVersion;

    await act("messenger_a_dm", "link");
    const cancelled = (await deliveries()).find((d) => d.id === before[0]!.id)!;
    expect(cancelled).toMatchObject({ state: "cancelled", cancelReason: "relinked" });

    await linkMessengerA();
    await runReminders();
    const after = (await deliveries()).filter((d) => d.reminderId === reminder.id && d.channel === "messenger_a_dm" && d.state === "scheduled");
    expect(after).toHaveLength(1);
    expect(after[0]!.identityVersion).toBe(version + 1);
    expect(after[0]!.logicalKey).not.toBe(before[0]!.logicalKey);
  });

  test("a replaced deadline cancels the scheduled rows and derives new ones; moving it back revives them", async () => {
    const at1 = new Date(clock.now().getTime() + 2 * 3600_000).toISOString();
    const r = await api.create(`/projects/${projectId}/reminders`, { title: "Sound check", audience: ["ana"], at: at1 });
    await runReminders();
    const first = (await deliveries()).filter((d) => d.reminderId === r.id);
    expect(first.map((d) => d.channel).sort()).toEqual(["email", "messenger_a_dm"]);

    const at2 = new Date(clock.now().getTime() + 3 * 3600_000).toISOString();
    await api.patch(`/projects/${projectId}/reminders/${r.id}`, { expectedVersion: 1, at: at2 });
    await runReminders();
    const rows = (await deliveries()).filter((d) => d.reminderId === r.id);
    expect(rows.filter((d) => d.dueAt === at1).every((d) => d.state === "cancelled" && d.cancelReason === "deadline_replaced")).toBe(true);
    expect(rows.filter((d) => d.dueAt === at2 && d.state === "scheduled")).toHaveLength(2);

    await api.patch(`/projects/${projectId}/reminders/${r.id}`, { expectedVersion: 2, at: at1 });
    await runReminders();
    const back = (await deliveries()).filter((d) => d.reminderId === r.id);
    expect(back).toHaveLength(4);
    expect(back.filter((d) => d.state === "scheduled").every((d) => d.dueAt === at1)).toBe(true);
  });

  test("a terminal work state cancels reminders relative to the work item", async () => {
    const work = await api.create(`/projects/${projectId}/work`, { title: "Rig lights", dueAt: new Date(clock.now().getTime() + 5 * 3600_000).toISOString() });
    const r = await api.create(`/projects/${projectId}/reminders`, { title: "Lights due soon", audience: ["ana"], offsetMinutes: -60, relativeTo: work.id });
    await runReminders();
    const rows = (await deliveries()).filter((d) => d.reminderId === r.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.dueAt).toBe(new Date(clock.now().getTime() + 4 * 3600_000).toISOString());
    await api.patch(`/projects/${projectId}/work/${work.id}`, { expectedVersion: 1, state: "cancelled" });
    await runReminders();
    expect((await deliveries()).filter((d) => d.reminderId === r.id).every((d) => d.state === "cancelled" && d.cancelReason === "terminal_work_state")).toBe(true);
  });

  test("a bot blocked by the user revokes the binding and cancels its reminders", async () => {
    const chatId = await linkMessengerA();
    await act("messenger_a_dm", "preference", { reminders: true });
    await runReminders();
    const open = (await deliveries()).filter((d) => d.channel === "messenger_a_dm" && d.state === "scheduled");
    expect(open.length).toBeGreaterThan(0);
    tg.blockedChats.add(String(chatId));
    const t = await act("messenger_a_dm", "test");
    expect(t.status).toBe(200);
    expect(t.body.test).toEqual({ disposition: "destination_unavailable", code: null });
    expect(t.body.channel).toMatchObject({ readiness: "revoked", reason: "channel_unavailable" });
    const now = (await deliveries()).filter((d) => open.some((o) => o.id === d.id));
    expect(now.every((d) => d.state === "cancelled" && d.cancelReason === "revoked")).toBe(true);
  });

  test("unlinking cancels, and a closed project cancels everything left", async () => {
    await runReminders();
    const scheduled = (await deliveries()).filter((d) => d.state === "scheduled");
    expect(scheduled.length).toBeGreaterThan(0);
    const project = (await api.get(`/projects/${projectId}`)).body;
    const patched = await api.patch(`/projects/${projectId}`, { expectedVersion: project.version ?? project.project?.version, state: "cancelled" });
    expect(patched.status).toBe(200);
    await runReminders();
    const left = (await deliveries()).filter((d) => scheduled.some((s) => s.id === d.id));
    expect(left.every((d) => d.state === "cancelled" && d.cancelReason === "project_closed")).toBe(true);
    // A user may still unlink in a closed project.
    expect((await act("messenger_b_dm", "unlink")).body.channel.readiness).toBe("unlinked");
  });
});
