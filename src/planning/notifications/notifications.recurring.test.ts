// A reminder relative to a recurring meeting fires before each occurrence — each its
// own logical reminder (per occurrence, recipient and channel) — at the same local
// time on both sides of a DST change, because the series is expanded in the
// project's time zone. A cancelled occurrence sends nothing (its derived reminder is
// cancelled as occurrence_cancelled, and revived if the occurrence is restored); a
// moved one is reminded of at its new time.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { asc } from "drizzle-orm";
import { createTestEnv, MutableClock, type TestEnv } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startSmtpServer } from "../../../test/fakes/reminder-providers.ts";
import { upsertMember } from "../../platform/tenancy/members.ts";
import { runJob } from "../../jobs/run-job.ts";
import { remindersJob } from "../../jobs/reminders.job.ts";
import { planningNotificationOutbox, planningReminderDeliveries } from "./notifications.tables.ts";

const clock = new MutableClock(new Date("2026-03-12T12:00:00.000Z"));
const smtp = await startSmtpServer();
let env: TestEnv;
let api: Kit & { close(): void };
let projectId = "";

beforeAll(async () => {
  env = await createTestEnv({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }, { clock });
  api = await partnerKit({ env, clock, family: "planning", users: { lead: "admin", olga: "operator", ana: "operator" } });
  await upsertMember(env.deps, { partnerId: "acme", userId: "ana", role: "operator", email: "ana@example.org" });
  projectId = (await api.create("/projects", { name: "Spring season", timeZone: "Europe/Berlin", members: [{ userId: "ana", role: "member" }, { userId: "olga", role: "member" }] })).id;
});
afterAll(async () => {
  api.close();
  await smtp.stop();
});

const runReminders = async () => {
  const [outcome] = await runJob(env.deps, remindersJob, { partnerId: "acme" });
  // idle: its probe found nothing due (no lease, no run record); what the pass did is asserted by the caller.
  expect(outcome?.status).toBeOneOf(["succeeded", "idle"]);
};
const attempts = () => api.read((q) => q.select().from(planningNotificationOutbox).orderBy(asc(planningNotificationOutbox.recordedAt)));
const deliveries = () => api.read((q) => q.select().from(planningReminderDeliveries).orderBy(asc(planningReminderDeliveries.dueAt)));
const berlin = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hourCycle: "h23", weekday: "short", day: "2-digit", month: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(iso));

test("a reminder 30 minutes before a weekly 09:00 Berlin meeting fires at 08:30 local before each occurrence, across the change to summer time", async () => {
  // Mondays 16, 23 March (CET), 30 March, 6 and 13 April (CEST); summer time starts on Sunday 29 March.
  const olga = api.as("olga");
  const meeting = await olga.create(`/projects/${projectId}/meetings`, {
    title: "Weekly sync",
    startsAt: "2026-03-16T09:00:00+01:00",
    endsAt: "2026-03-16T10:00:00+01:00",
    recurrence: "FREQ=WEEKLY;BYDAY=MO;COUNT=5",
  });
  const reminder = await olga.create(`/projects/${projectId}/reminders`, { title: "Weekly sync at 09:00", audience: ["ana"], offsetMinutes: -30, relativeTo: meeting.id });
  const occ = `/projects/${projectId}/meetings/${meeting.id}/occurrences`;
  // Called off ahead of time: 13 April.
  expect((await olga.post(occ, { occurrenceAt: "2026-04-13T07:00:00Z", cancelled: true })).status).toBe(200);

  const expected = ["2026-03-16T07:30:00.000Z", "2026-03-23T07:30:00.000Z", "2026-03-30T06:30:00.000Z", "2026-04-06T06:30:00.000Z"];
  for (const [i, dueAt] of expected.entries()) {
    // A minute before: nothing new goes out.
    clock.current = new Date(Date.parse(dueAt) - 60_000);
    await runReminders();
    expect((await attempts()).length, `before ${dueAt}`).toBe(i);
    if (dueAt === "2026-04-06T06:30:00.000Z") {
      // 6 April was derived a week ahead; cancelling the occurrence now cancels its reminder…
      const cancel = await olga.post(occ, { occurrenceAt: "2026-04-06T07:00:00Z", cancelled: true });
      expect(cancel.status).toBe(200);
      await runReminders();
      expect((await deliveries()).find((d) => d.dueAt === dueAt)).toMatchObject({ state: "cancelled", cancelReason: "occurrence_cancelled" });
      // …and restoring it before the time revives the same logical reminder.
      expect((await olga.post(occ, { occurrenceAt: "2026-04-06T07:00:00Z", cancelled: false })).status).toBe(200);
      await runReminders();
      expect((await deliveries()).find((d) => d.dueAt === dueAt)).toMatchObject({ state: "scheduled", cancelReason: null });
    }
    clock.current = new Date(dueAt);
    await runReminders();
    const made = await attempts();
    expect(made.length, `at ${dueAt}`).toBe(i + 1);
    expect(made.at(-1)).toMatchObject({ reminderId: reminder.id, recipientUserId: "ana", channel: "email", dueAt, recordedAt: dueAt, state: "sent" });
  }
  expect((await attempts()).map((a) => berlin(a.recordedAt))).toEqual(["Mon 16 Mar, 08:30", "Mon 23 Mar, 08:30", "Mon 30 Mar, 08:30", "Mon 06 Apr, 08:30"]);
  expect(smtp.messages.filter((m) => m.to.includes("ana@example.org"))).toHaveLength(4);

  // The cancelled 13 April: nothing at its time, or after.
  clock.current = new Date("2026-04-13T06:30:00.000Z");
  await runReminders();
  clock.current = new Date("2026-04-13T09:00:00.000Z");
  await runReminders();
  expect(await attempts()).toHaveLength(4);
  // One logical reminder per occurrence (and recipient and channel); the called-off one was never derived.
  const rows = await deliveries();
  expect(rows.map((d) => [d.dueAt, d.state])).toEqual(expected.map((dueAt) => [dueAt, "dispatched"]));
  expect(new Set(rows.map((d) => d.logicalKey)).size).toBe(4);
});

test("a moved occurrence is reminded of at its new time; the rest of the series keeps its own", async () => {
  const olga = api.as("olga");
  clock.current = new Date("2026-05-01T12:00:00.000Z");
  const meeting = await olga.create(`/projects/${projectId}/meetings`, {
    title: "Crew briefing",
    startsAt: "2026-05-04T17:00:00+02:00",
    endsAt: "2026-05-04T18:00:00+02:00",
    recurrence: "FREQ=DAILY;COUNT=3",
  });
  await olga.create(`/projects/${projectId}/reminders`, { title: "Briefing in an hour", audience: ["ana"], offsetMinutes: -60, relativeTo: meeting.id });
  await runReminders();
  const before = (await deliveries()).filter((d) => d.dueAt >= "2026-05-01");
  expect(before.map((d) => [d.dueAt, d.state])).toEqual([
    ["2026-05-04T14:00:00.000Z", "scheduled"],
    ["2026-05-05T14:00:00.000Z", "scheduled"],
    ["2026-05-06T14:00:00.000Z", "scheduled"],
  ]);
  // 5 May moves to 19:00 local: its reminder moves to 18:00 local (16:00Z).
  const moved = await olga.post(`/projects/${projectId}/meetings/${meeting.id}/occurrences`, { occurrenceAt: "2026-05-05T15:00:00Z", startsAt: "2026-05-05T19:00:00+02:00", endsAt: "2026-05-05T20:00:00+02:00" });
  expect(moved.status).toBe(200);
  await runReminders();
  const after = (await deliveries()).filter((d) => d.dueAt >= "2026-05-01");
  expect(after.map((d) => [d.dueAt, d.state, d.cancelReason])).toEqual([
    ["2026-05-04T14:00:00.000Z", "scheduled", null],
    ["2026-05-05T14:00:00.000Z", "cancelled", "deadline_replaced"],
    ["2026-05-05T16:00:00.000Z", "scheduled", null],
    ["2026-05-06T14:00:00.000Z", "scheduled", null],
  ]);
  for (const at of ["2026-05-04T14:00:00.000Z", "2026-05-05T14:00:00.000Z", "2026-05-05T16:00:00.000Z", "2026-05-06T14:00:00.000Z"]) {
    clock.current = new Date(at);
    await runReminders();
  }
  expect((await attempts()).filter((a) => a.dueAt >= "2026-05-01").map((a) => [a.recordedAt, a.state])).toEqual([
    ["2026-05-04T14:00:00.000Z", "sent"],
    ["2026-05-05T16:00:00.000Z", "sent"],
    ["2026-05-06T14:00:00.000Z", "sent"],
  ]);
});
