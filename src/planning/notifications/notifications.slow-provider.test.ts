// A slow messenger Bot API holds no write lock (brief T item 2, the personal channel
// side of the destination test): while the caller's `test` of a linked messenger_a_dm
// channel waits 2 s for the bot API, other writes of the partner answer at once; the
// test then answers `sent`, and a chat that blocked the bot still revokes the binding
// (recorded after the send, in a transaction of its own).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startTelegramServer } from "../../../test/fakes/reminder-providers.ts";
import { planningAudit } from "../audit/audit.tables.ts";

const TG_TOKEN = "7000002:AAslow-telegram-bot-token";
const CHAT_ID = 5550009876;
const tg = startTelegramServer(TG_TOKEN);
const clock = new MutableClock(new Date("2026-03-02T09:00:00.000Z"));
let api: Kit & { close(): void };
let projectId = "";

beforeAll(async () => {
  api = await partnerKit({ clock, family: "planning", users: { lead: "admin", ana: "operator" }, envVars: { MESSENGER_A_API_BASE: tg.url, MESSENGER_A_BOT_TOKEN: TG_TOKEN } });
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
