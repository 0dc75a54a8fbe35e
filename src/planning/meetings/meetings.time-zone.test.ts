// Recurring meetings keep their local wall-clock time (RFC 5545 §3.3.5, §3.8.5.3): a
// series is expanded in the project's time zone, so a weekly 09:00 Europe/Berlin
// meeting is at 08:00Z in winter and 07:00Z in summer — in the server's occurrences
// (what `occurrenceAt` must name) and in the iCalendar export, which ical.js reads as
// 09:00 local on both sides of the change. A local time the spring-forward skips is
// taken with the offset before the gap (02:30 → 03:30 summer time); one the autumn
// change repeats names its first pass (ical.js reads both the other way, so the export
// pins those occurrences to the server's instants). Changing the project's zone keeps
// the series' exceptions on their occurrences.
import { test, expect, afterAll, beforeAll } from "bun:test";
import ICAL from "ical.js";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { asc, eq } from "drizzle-orm";
import { withTx, writer } from "../../platform/db/transactions.ts";
import { planningMeetingOccurrences } from "./meetings.tables.ts";

const clock = new MutableClock(new Date("2026-03-02T08:00:00.000Z"));
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", olga: "operator" } });
afterAll(() => api.close());
const olga = api.as("olga");
let project = "";

beforeAll(async () => {
  project = (await api.create("/projects", { name: "Spring season", timeZone: "Europe/Berlin", members: [{ userId: "olga", role: "member" }] })).id;
});

const series = async (title: string, startsAt: string, minutes: number, recurrence: string, projectId = project) => {
  const res = await olga.post(`/projects/${projectId}/meetings`, { title, startsAt, endsAt: new Date(Date.parse(startsAt) + minutes * 60_000).toISOString(), recurrence });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const occurrence = (meetingId: string, body: Record<string, unknown>, projectId = project) => olga.post(`/projects/${projectId}/meetings/${meetingId}/occurrences`, body);

async function calendar(projectId = project) {
  const res = await olga.get(`/projects/${projectId}/calendar.ics`);
  expect(res.status).toBe(200);
  return { text: String(res.body), cal: new ICAL.Component(ICAL.parse(String(res.body))) };
}
const prop = (c: ICAL.Component, name: string) => c.getFirstPropertyValue(name) as any;
const eventsOf = (cal: ICAL.Component, id: string) => cal.getAllSubcomponents("vevent").filter((e) => String(prop(e, "uid")).startsWith(id));
/** The series as a calendar app expands it: each occurrence's start, local (in its TZID) and UTC; EXDATEs left out. */
function expand(cal: ICAL.Component, id: string) {
  const events = eventsOf(cal, id);
  const master = events.find((e) => !e.hasProperty("recurrence-id"))!;
  // Its own exceptions only (ical.js would otherwise take every RECURRENCE-ID of the calendar).
  const event = new ICAL.Event(master, { strictExceptions: true, exceptions: [] });
  for (const e of events) if (e !== master) event.relateException(e);
  const excluded = master.getAllProperties("exdate").flatMap((p) => p.getValues() as ICAL.Time[]);
  const out: Array<{ local: string; utc: string; summary: string }> = [];
  const it = event.iterator();
  for (let next = it.next(); next; next = it.next()) {
    if (excluded.some((x) => x.compare(next!) === 0)) continue;
    const details = event.getOccurrenceDetails(next);
    const start = details.startDate;
    out.push({ local: start.toString(), utc: start.toJSDate().toISOString(), summary: details.item.summary });
  }
  return out;
}

test("a weekly 09:00 Europe/Berlin series stays at 09:00 across the last Sunday of March: 08:00Z in winter, 07:00Z in summer", async () => {
  // Mondays 16, 23 March (CET, +01:00), 30 March and 6 April (CEST, +02:00); summer time starts on Sunday 29 March.
  const id = await series("Weekly sync", "2026-03-16T09:00:00+01:00", 60, "FREQ=WEEKLY;COUNT=4");
  // The server's occurrences: the summer ones at 07:00Z; 08:00Z would be 10:00 local (the UTC drift).
  expectFieldError(await occurrence(id, { occurrenceAt: "2026-03-30T08:00:00Z", cancelled: true }), "/body/occurrenceAt");
  expectFieldError(await occurrence(id, { occurrenceAt: "2026-04-06T08:00:00Z", cancelled: true }), "/body/occurrenceAt");
  const winter = await occurrence(id, { occurrenceAt: "2026-03-23T08:00:00Z", title: "Weekly sync (budget)" });
  expect(winter.status, JSON.stringify(winter.body)).toBe(200);
  const summer = await occurrence(id, { occurrenceAt: "2026-04-06T09:00:00+02:00", cancelled: true });
  expect(summer.status, JSON.stringify(summer.body)).toBe(200);
  expect(summer.body).toMatchObject({ occurrenceAt: "2026-04-06T07:00:00.000Z", cancelled: true });
  const moved = await occurrence(id, { occurrenceAt: "2026-03-30T07:00:00Z", startsAt: "2026-03-31T09:00:00+02:00", endsAt: "2026-03-31T10:00:00+02:00" });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);

  // The export: DTSTART, EXDATE and RECURRENCE-ID in the project's zone with its VTIMEZONE, the rule as stored.
  const { text, cal } = await calendar();
  const unfolded = text.replaceAll("\r\n ", "");
  expect(unfolded).toContain("DTSTART;TZID=Europe/Berlin:20260316T090000\r\n");
  expect(unfolded).toContain("DTEND;TZID=Europe/Berlin:20260316T100000\r\n");
  expect(unfolded).toContain("RRULE:FREQ=WEEKLY;COUNT=4\r\n");
  expect(unfolded).toContain("EXDATE;TZID=Europe/Berlin:20260406T090000\r\n");
  expect(unfolded).toContain("RECURRENCE-ID;TZID=Europe/Berlin:20260323T090000\r\n");
  expect(unfolded).toContain("RECURRENCE-ID;TZID=Europe/Berlin:20260330T090000\r\n");
  const zones = cal.getAllSubcomponents("vtimezone");
  expect(zones.map((z) => prop(z, "tzid"))).toEqual(["Europe/Berlin"]);
  // ical.js reads the series as a calendar app does: 09:00 local in winter and in summer.
  expect(expand(cal, id)).toEqual([
    { local: "2026-03-16T09:00:00", utc: "2026-03-16T08:00:00.000Z", summary: "Weekly sync" },
    { local: "2026-03-23T09:00:00", utc: "2026-03-23T08:00:00.000Z", summary: "Weekly sync (budget)" },
    { local: "2026-03-31T09:00:00", utc: "2026-03-31T07:00:00.000Z", summary: "Weekly sync" },
  ]);
  const master = eventsOf(cal, id).find((e) => !e.hasProperty("recurrence-id"))!;
  const exdate = prop(master, "exdate") as ICAL.Time;
  expect([exdate.zone?.tzid, exdate.toString(), exdate.toJSDate().toISOString()]).toEqual(["Europe/Berlin", "2026-04-06T09:00:00", "2026-04-06T07:00:00.000Z"]);
});

test("a local time the spring-forward skips is taken with the offset before the gap: 02:30 becomes 03:30 summer time (RFC 5545 §3.3.5)", async () => {
  // Daily at 02:30 from Saturday 28 March: on Sunday 29 March 02:30 does not exist in Berlin.
  const id = await series("Night shift handover", "2026-03-28T02:30:00+01:00", 30, "FREQ=DAILY;COUNT=3");
  // 02:30 +01:00 (the offset before the gap) = 03:30 CEST = 01:30Z; the day after, 02:30 CEST = 00:30Z.
  for (const at of ["2026-03-29T00:30:00Z", "2026-03-29T00:00:00Z", "2026-03-30T01:30:00Z"]) expectFieldError(await occurrence(id, { occurrenceAt: at, title: "x" }), "/body/occurrenceAt", at);
  expect((await occurrence(id, { occurrenceAt: "2026-03-30T00:30:00Z", title: "Handover" })).status).toBe(200);

  // The export names the occurrence by the local time its rule makes (02:30) and pins it to the server's instant in UTC,
  // since clients read a skipped local time differently (ical.js takes 00:30Z); ical.js then agrees with the server.
  let { text, cal } = await calendar();
  expect(text).toContain("DTSTART:20260329T013000Z\r\nDTEND:20260329T020000Z\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260329T023000\r\n");
  expect(expand(cal, id).map((o) => [o.utc, o.summary])).toEqual([
    ["2026-03-28T01:30:00.000Z", "Night shift handover"],
    ["2026-03-29T01:30:00.000Z", "Night shift handover"],
    ["2026-03-30T00:30:00.000Z", "Handover"],
  ]);
  // Cancelling it: the EXDATE names the same local time, and the pin goes.
  expect((await occurrence(id, { occurrenceAt: "2026-03-29T01:30:00Z", cancelled: true })).status).toBe(200);
  ({ text, cal } = await calendar());
  expect(text).toContain("EXDATE;TZID=Europe/Berlin:20260329T023000\r\n");
  expect(text).not.toContain("RECURRENCE-ID;TZID=Europe/Berlin:20260329T023000");
  expect(expand(cal, id).map((o) => o.utc)).toEqual(["2026-03-28T01:30:00.000Z", "2026-03-30T00:30:00.000Z"]);
});

test("a local time the autumn change repeats names its first pass (summer time); a series cannot start on the second one", async () => {
  // Daily at 02:30 from Saturday 24 October: on Sunday 25 October 02:30 happens twice in Berlin.
  const id = await series("Night shift handover (autumn)", "2026-10-24T02:30:00+02:00", 30, "FREQ=DAILY;COUNT=3");
  // The first 02:30 (+02:00) = 00:30Z; the second (+01:00, 01:30Z) is not the occurrence. Monday's 02:30 CET = 01:30Z.
  expectFieldError(await occurrence(id, { occurrenceAt: "2026-10-25T01:30:00Z", title: "x" }), "/body/occurrenceAt");
  expectFieldError(await occurrence(id, { occurrenceAt: "2026-10-26T00:30:00Z", title: "x" }), "/body/occurrenceAt");
  expect((await occurrence(id, { occurrenceAt: "2026-10-26T01:30:00Z", title: "Handover" })).status).toBe(200);
  // Pinned in the export as the gap's was (ical.js reads a repeated local time as its second pass).
  const { text, cal } = await calendar();
  expect(text).toContain("DTSTART:20261025T003000Z\r\nDTEND:20261025T010000Z\r\nRECURRENCE-ID;TZID=Europe/Berlin:20261025T023000\r\n");
  expect(expand(cal, id).map((o) => o.utc)).toEqual(["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  expect((await occurrence(id, { occurrenceAt: "2026-10-25T00:30:00Z", title: "Handover (long night)" })).status).toBe(200);

  // 01:30Z on 25 October is the second 02:30: as a local time it names the first, so it cannot be DTSTART.
  const second = await olga.post(`/projects/${project}/meetings`, { title: "Second pass", startsAt: "2026-10-25T01:30:00Z", endsAt: "2026-10-25T02:00:00Z", recurrence: "FREQ=DAILY;COUNT=2" });
  expectFieldError(second, "/body/recurrence");
  expect(second.body.errors[0].message).toContain("2026-10-25T00:30:00.000Z");
  // As a single meeting it is fine: only a series needs its start as a local time.
  expect((await olga.post(`/projects/${project}/meetings`, { title: "Second pass", startsAt: "2026-10-25T01:30:00Z", endsAt: "2026-10-25T02:00:00Z" })).status).toBe(201);
});

test("a project's time zone change keeps each exception on its occurrence", async () => {
  const other = (await api.create("/projects", { name: "Tour", timeZone: "Europe/Berlin", members: [{ userId: "olga", role: "member" }] })).id;
  const id = await series("Tour call", "2026-03-16T09:00:00+01:00", 30, "FREQ=WEEKLY;COUNT=4", other);
  expect((await occurrence(id, { occurrenceAt: "2026-03-30T07:00:00Z", cancelled: true }, other)).status).toBe(200);
  expect((await occurrence(id, { occurrenceAt: "2026-04-06T07:00:00Z", title: "Tour call (last)" }, other)).status).toBe(200);
  // In New York the series (04:00 EDT from 16 March, after the US change of 8 March) is at 08:00Z every week.
  const patched = await api.patch(`/projects/${other}`, { expectedVersion: 1, timeZone: "America/New_York" });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const detail = await api.get(`/projects/${other}/meetings/${id}`);
  expect(detail.body.occurrences.map((o: any) => [o.occurrenceAt, o.cancelled, o.title])).toEqual([
    ["2026-03-30T08:00:00.000Z", true, "Tour call"],
    ["2026-04-06T08:00:00.000Z", false, "Tour call (last)"],
  ]);
  const { cal } = await calendar(other);
  expect(expand(cal, id).map((o) => [o.local, o.utc, o.summary])).toEqual([
    ["2026-03-16T04:00:00", "2026-03-16T08:00:00.000Z", "Tour call"],
    ["2026-03-23T04:00:00", "2026-03-23T08:00:00.000Z", "Tour call"],
    ["2026-04-06T04:00:00", "2026-04-06T08:00:00.000Z", "Tour call (last)"],
  ]);
  // The next change to the series' exceptions stores them in the new zone; the same exception is found again.
  const again = await occurrence(id, { occurrenceAt: "2026-04-06T08:00:00Z", title: "Tour call (final)" }, other);
  expect(again.body).toMatchObject({ occurrenceAt: "2026-04-06T08:00:00.000Z", title: "Tour call (final)", version: 2 });
  const stored = await api.read((q) => q.select().from(planningMeetingOccurrences).where(eq(planningMeetingOccurrences.meetingId, id)).orderBy(asc(planningMeetingOccurrences.occurrenceAt)));
  expect(stored.map((o) => [o.occurrenceAt, o.seriesZone])).toEqual([
    ["2026-03-30T08:00:00.000Z", "America/New_York"],
    ["2026-04-06T08:00:00.000Z", "America/New_York"],
  ]);
});

test("exceptions stored while series were expanded in UTC (no series zone) are read at their occurrence's place", async () => {
  const id = await series("Old sync", "2026-03-16T09:00:00+01:00", 60, "FREQ=WEEKLY;COUNT=4");
  // As rows written before zoned expansion look: the UTC expansion put 30 March at 08:00Z (10:00 summer time in Berlin).
  await api.inTenant((ctx) =>
    withTx(ctx, async (ctx) => {
      const row = { meetingId: id, cancelled: false, startsAt: null, endsAt: null, location: null, version: 1, createdAt: ctx.nowIso, updatedAt: ctx.nowIso, createdBy: "olga" };
      await writer(ctx)
        .insert(planningMeetingOccurrences)
        .values([
          { ...row, id: crypto.randomUUID(), occurrenceAt: "2026-03-23T08:00:00.000Z", title: "Old sync (winter)" },
          { ...row, id: crypto.randomUUID(), occurrenceAt: "2026-03-30T08:00:00.000Z", title: "Old sync (summer)" },
        ]);
    }),
  );
  const detail = await api.get(`/projects/${project}/meetings/${id}`);
  expect(detail.body.occurrences.map((o: any) => [o.occurrenceAt, o.startsAt, o.title])).toEqual([
    ["2026-03-23T08:00:00.000Z", "2026-03-23T08:00:00.000Z", "Old sync (winter)"],
    ["2026-03-30T07:00:00.000Z", "2026-03-30T07:00:00.000Z", "Old sync (summer)"],
  ]);
  const { cal } = await calendar();
  expect(expand(cal, id).map((o) => [o.local, o.summary])).toEqual([
    ["2026-03-16T09:00:00", "Old sync"],
    ["2026-03-23T09:00:00", "Old sync (winter)"],
    ["2026-03-30T09:00:00", "Old sync (summer)"],
    ["2026-04-06T09:00:00", "Old sync"],
  ]);
  // Cancelling the summer one by its zoned start finds the old row (no second exception); the series' rows are then stored in the zone.
  expect((await occurrence(id, { occurrenceAt: "2026-03-30T07:00:00Z", cancelled: true })).body).toMatchObject({ title: "Old sync", cancelled: true, version: 2 });
  const stored = await api.read((q) => q.select().from(planningMeetingOccurrences).where(eq(planningMeetingOccurrences.meetingId, id)).orderBy(asc(planningMeetingOccurrences.occurrenceAt)));
  expect(stored.map((o) => [o.occurrenceAt, o.seriesZone, o.cancelled])).toEqual([
    ["2026-03-23T08:00:00.000Z", "Europe/Berlin", false],
    ["2026-03-30T07:00:00.000Z", "Europe/Berlin", true],
  ]);
});
