// A slow messenger Bot API holds no write lock (brief T item 2, the personal channel
// side of the destination test): while the caller's `test` of a linked messenger_a_dm
// channel waits 2 s for the bot API, other writes of the partner answer at once; the
// test then answers `sent`, and a chat that blocked the bot still revokes the binding
// (recorded after the send, in a transaction of its own). The same holds for the bot
// API calls of `link` (getMe; opening the DM and sending the code) and `verify`
// (getUpdates): the change is applied afterwards only if the binding is still as it
// was when the provider was asked, else 409 state_conflict.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startDiscordServer, startTelegramServer } from "../../../test/fakes/reminder-providers.ts";
import { planningAudit } from "../audit/audit.tables.ts";

const TG_TOKEN = "7000002:AAslow-telegram-bot-token";
const CHAT_ID = 5550009876;
const DC_TOKEN = "slow-discord-bot-token";
const tg = startTelegramServer(TG_TOKEN);
const dc = startDiscordServer(DC_TOKEN);
const clock = new MutableClock(new Date("2026-03-02T09:00:00.000Z"));
let api: Kit & { close(): void };
let projectId = "";

beforeAll(async () => {
  api = await partnerKit({
    clock,
    family: "planning",
    users: { lead: "admin", ana: "operator" },
    envVars: { MESSENGER_A_API_BASE: tg.url, MESSENGER_A_BOT_TOKEN: TG_TOKEN, MESSENGER_B_API_BASE: dc.url, MESSENGER_B_BOT_TOKEN: DC_TOKEN },
  });
  projectId = (await api.create("/projects", { name: "Spring gala", timeZone: "Europe/London", members: [{ userId: "ana", role: "member" }] })).id;
  // Ana links messenger_a: the code she sent to the bot, then verify.
  const ana = api.as("ana");
  const linked = await ana.post(`/projects/${projectId}/my-reminder-channels/messenger_a_dm/link`, {});
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  tg.userSends(CHAT_ID, `/start ${linked.body.link.code}`);
  const verified = await ana.post(`/projects/${projectId}/my-reminder-channels/messenger_a_dm/verify`, { code: linked.body.link.code });
  expect(verified.body.channel).toMatchObject({ readiness: "ready" });
});
afterAll(() => {
  api.close();
  tg.stop();
  dc.stop();
});

const testPath = () => `/projects/${projectId}/my-reminder-channels/messenger_a_dm/test`;

describe("a slow bot API holds no write lock", () => {
  test("while Ana's channel test waits 2 s for the bot API, other writes of the partner answer at once; the test answers sent and its key replays", async () => {
    tg.delaySends(2000);
    const ana = api.as("ana");
    const before = tg.sendsArrived;
    const started = performance.now();
    const testing = ana.post(testPath(), {}, { idem: "slow-bot-test" });
    try {
      while (tg.sendsArrived === before) await Bun.sleep(10);
      const writes: number[] = [];
      for (const name of ["Summer gala", "Autumn gala"]) {
        const t = performance.now();
        expect((await api.post("/projects", { name, timeZone: "Europe/London" })).status).toBe(201);
        writes.push(performance.now() - t);
      }
      // Ana's own other channel is hers to change meanwhile too.
      const t = performance.now();
      expect((await ana.post(`/projects/${projectId}/my-reminder-channels/messenger_a_dm/preference`, { reminders: true })).status).toBe(200);
      writes.push(performance.now() - t);
      for (const ms of writes) expect(ms).toBeLessThan(300);
      expect(tg.sent).toHaveLength(0);
    } finally {
      tg.delaySends(0);
    }
    const tested = await testing;
    expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.test).toEqual({ disposition: "sent", code: null });
    // The preference set while the message was on its way is kept in the answer.
    expect(tested.body.channel).toMatchObject({ readiness: "ready", reminders: true });
    expect(tg.sent.map((m) => m.chatId)).toEqual([String(CHAT_ID)]);
    const replay = await ana.post(testPath(), {}, { idem: "slow-bot-test" });
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(tested.body);
    expect(tg.sent).toHaveLength(1);
  }, 20_000);

  test("a chat that blocked the bot revokes the binding after the send; the outcome and its audit row are recorded", async () => {
    tg.blockedChats.add(String(CHAT_ID));
    const res = await api.as("ana").post(testPath(), {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.test).toEqual({ disposition: "destination_unavailable", code: null });
    expect(res.body.channel).toMatchObject({ readiness: "revoked", reason: "channel_unavailable" });
    const audit = await api.read((q) => q.select().from(planningAudit).where(eq(planningAudit.action, "channel_test")));
    expect(audit.map((a) => (a.data as { readiness: string }).readiness)).toEqual(["ready", "revoked"]);
    // A revoked channel is not tested again.
    const again = await api.as("ana").post(testPath(), {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("state_conflict");
  });
});

const actionPath = (channel: string, action: string) => `/projects/${projectId}/my-reminder-channels/${channel}/${action}`;
let gala = 0;

/** Waits until the held provider call has arrived, then shows that other writes of the partner answer at once meanwhile. */
async function otherWritesAnswerAtOnce(arrivedBefore: number, arrived: () => number) {
  while (arrived() === arrivedBefore) await Bun.sleep(10);
  for (let i = 0; i < 2; i++) {
    const t = performance.now();
    expect((await api.post("/projects", { name: `Winter gala ${++gala}`, timeZone: "Europe/London" })).status).toBe(201);
    expect(performance.now() - t).toBeLessThan(300);
  }
}

describe("link and verify ask the bot API outside the write transaction", () => {
  let codeA = "";

  test("while messenger_a link waits 1.5 s for getMe, other writes answer at once; the link then answers its code and deep link", async () => {
    tg.delay("getMe", 1500);
    const before = tg.arrived("getMe");
    const started = performance.now();
    const linking = api.as("ana").post(actionPath("messenger_a_dm", "link"), {}, { idem: "slow-link-a" });
    try {
      await otherWritesAnswerAtOnce(before, () => tg.arrived("getMe"));
    } finally {
      tg.delay("getMe", 0);
    }
    const linked = await linking;
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    codeA = linked.body.link.code;
    expect(linked.body.link.deepLink).toBe(`https://t.me/planner_test_bot?start=${codeA}`);
    expect(linked.body.channel).toMatchObject({ readiness: "pending" });
    const replay = await api.as("ana").post(actionPath("messenger_a_dm", "link"), {}, { idem: "slow-link-a" });
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(linked.body);
  }, 20_000);

  test("while messenger_a verify waits 1.5 s for getUpdates, other writes answer at once; the verify then binds the chat", async () => {
    tg.userSends(CHAT_ID, `/start ${codeA}`);
    tg.delay("getUpdates", 1500);
    const before = tg.arrived("getUpdates");
    const verifying = api.as("ana").post(actionPath("messenger_a_dm", "verify"), { code: codeA });
    try {
      await otherWritesAnswerAtOnce(before, () => tg.arrived("getUpdates"));
    } finally {
      tg.delay("getUpdates", 0);
    }
    const verified = await verifying;
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.channel).toMatchObject({ readiness: "ready", identityVersion: 2 });
    const audit = await api.read((q) => q.select().from(planningAudit).where(eq(planningAudit.action, "channel_verify")));
    expect(audit.map((a) => (a.data as { readiness: string }).readiness)).toEqual(["ready", "ready"]);
  }, 20_000);

  test("while messenger_b link waits 1 s to open the DM and 1 s to send the code, other writes answer at once; the code sent then verifies", async () => {
    dc.delay("createDm", 1000);
    dc.delay("send", 1000);
    const [dmsBefore, sendsBefore] = [dc.arrived("createDm"), dc.arrived("send")];
    const linking = api.as("ana").post(actionPath("messenger_b_dm", "link"), { accountId: "112233445566778899" });
    try {
      await otherWritesAnswerAtOnce(dmsBefore, () => dc.arrived("createDm"));
      await otherWritesAnswerAtOnce(sendsBefore, () => dc.arrived("send"));
    } finally {
      dc.delay("createDm", 0);
      dc.delay("send", 0);
    }
    const linked = await linking;
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toMatchObject({ link: null, channel: { readiness: "pending" } });
    const code = dc.messages.at(-1)!.content.match(/code is ([A-Z0-9]+)/)![1]!;
    const verified = await api.as("ana").post(actionPath("messenger_b_dm", "verify"), { code });
    expect(verified.body.channel).toMatchObject({ readiness: "ready", destination: "dm ••99", identityVersion: 1 });
  }, 20_000);

  test("a binding changed while the bot API was asked (Ana unlinked meanwhile) is left as the unlink made it: 409 state_conflict", async () => {
    const ana = api.as("ana");
    const { code } = (await ana.post(actionPath("messenger_a_dm", "link"), {})).body.link;
    tg.userSends(CHAT_ID, `/start ${code}`);
    tg.delay("getUpdates", 1500);
    const before = tg.arrived("getUpdates");
    const verifying = ana.post(actionPath("messenger_a_dm", "verify"), { code });
    try {
      while (tg.arrived("getUpdates") === before) await Bun.sleep(10);
      const unlinked = await ana.post(actionPath("messenger_a_dm", "unlink"), {});
      expect(unlinked.body.channel).toMatchObject({ readiness: "unlinked" });
    } finally {
      tg.delay("getUpdates", 0);
    }
    const verified = await verifying;
    expect(verified.status, JSON.stringify(verified.body)).toBe(409);
    expect(verified.body.code).toBe("state_conflict");
    const channels = await ana.get(`/projects/${projectId}/my-reminder-channels`);
    expect(channels.body.channels.find((c: { channel: string }) => c.channel === "messenger_a_dm")).toMatchObject({ readiness: "unlinked", destination: null, identityVersion: 2 });
  }, 20_000);
});
