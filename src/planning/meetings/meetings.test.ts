// A production meeting told as a story: an ordered agenda built in two calls, a
// draft of the minutes and then two published revisions — the first superseded and
// unchanged, action items turned into work items once — and the limits around it;
// recurring series expanded by a library, bounded, and their occurrences checked.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { eq } from "drizzle-orm";
import { withTx, writer } from "../../platform/db/transactions.ts";
import { planningRecords } from "../collections/collections.tables.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
// pia leads (admin), max reviews (manager), olga edits (operator), vic views.
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", max: "manager", olga: "operator", vic: "viewer", eve: "operator" } });
afterAll(() => api.close());
const olga = api.as("olga");
const max = api.as("max");
const s = { project: "", meeting: "", other: "" };
const M = () => `/projects/${s.project}/meetings/${s.meeting}`;

beforeAll(async () => {
  const members = [{ userId: "olga", role: "member" }, { userId: "max", role: "member" }, { userId: "vic", role: "viewer" }];
  s.project = (await api.create("/projects", { name: "Summer gala", timeZone: "Europe/Paris", members })).id;
  s.meeting = (await api.create(`/projects/${s.project}/meetings`, { title: "Production meeting", startsAt: "2026-06-01T08:00:00Z", endsAt: "2026-06-01T09:30:00Z" })).id;
  s.other = (await api.create("/projects", { name: "Other show", timeZone: "Europe/Paris", members: [{ userId: "eve", role: "member" }] })).id;
});

test("an ordered agenda: appended, then inserted at a position, each item's start derived", async () => {
  const first = await olga.post(`${M()}/agenda`, {
    items: [
      { title: "Welcome", durationMinutes: 5, presenterUserId: "pia" },
      { title: "Budget", durationMinutes: 20, presenterUserId: "max" },
    ],
  });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const second = await olga.post(`${M()}/agenda`, { items: [{ title: "Safety briefing", durationMinutes: 10, position: 1 }, { title: "AOB", durationMinutes: 5 }] });
  expect(second.status).toBe(200);
  expect(second.body.agenda.map((a: any) => [a.position, a.title, a.startsAt])).toEqual([
    [0, "Welcome", "2026-06-01T08:00:00.000Z"],
    [1, "Safety briefing", "2026-06-01T08:05:00.000Z"],
    [2, "Budget", "2026-06-01T08:15:00.000Z"],
    [3, "AOB", "2026-06-01T08:35:00.000Z"],
  ]);
  expect(second.body.agendaMinutes).toBe(40);
  expect((await api.get(M())).body.agenda.map((a: any) => a.title)).toEqual(["Welcome", "Safety briefing", "Budget", "AOB"]);

  // Presenters are project members; viewers cannot edit; nothing is written on a refusal.
  expectFieldError(await olga.post(`${M()}/agenda`, { items: [{ title: "X", durationMinutes: 5 }, { title: "Y", durationMinutes: 5, presenterUserId: "eve" }] }), "/body/items/1/presenterUserId");
  expectFieldError(await olga.post(`${M()}/agenda`, { items: [{ title: "X", durationMinutes: 0 }] }), "/body/items/0/durationMinutes");
  expectProblem(await api.as("vic").post(`${M()}/agenda`, { items: [{ title: "X", durationMinutes: 5 }] }), 403, "capability_denied");
  expect((await api.get(M())).body.agenda).toHaveLength(4);
});

test("minutes: a draft, two published revisions; the first superseded and unchanged; action items become work once", async () => {
  const draft = await olga.post(`${M()}/minutes`, { content: "# Notes\nDraft." });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  expect(draft.body).toMatchObject({ revision: 1, state: "draft", publishedAt: null });
  // Publication is a reviewer's.
  expectProblem(await olga.post(`${M()}/minutes`, { content: "x", state: "published" }), 403, "capability_denied");

  const firstBody = {
    content: "# Minutes\nBudget approved.",
    state: "published",
    decisions: [{ text: "Approve the stage budget", createWorkItem: true }, { text: "Keep the date" }],
    actionItems: [{ title: "Book the crane", assigneeUserId: "olga", dueAt: "2026-06-10T12:00:00+02:00" }, { title: "Tell the band", createWorkItem: false }],
  };
  const first = await max.post(`${M()}/minutes`, firstBody);
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  expect(first.body).toMatchObject({ revision: 2, state: "published", publishedBy: "max" });
  const crane = first.body.actionItems[0].workItemId;
  const budget = first.body.decisions[0].workItemId;
  expect(crane).toBeString();
  expect(first.body.decisions[1].workItemId).toBeNull();
  expect(first.body.actionItems[1].workItemId).toBeNull();
  const work = (await api.get(`/projects/${s.project}/work/${crane}`)).body;
  expect(work).toMatchObject({ title: "Book the crane", assigneeUserId: "olga", dueAt: "2026-06-10T10:00:00.000Z", state: "open" });
  expect((await api.get(`/projects/${s.project}/work/${budget}`)).body.title).toBe("Approve the stage budget");

  const second = await max.post(`${M()}/minutes`, { ...firstBody, content: "# Minutes\nBudget approved; crane booked by Friday." });
  expect(second.status).toBe(201);
  expect(second.body).toMatchObject({ revision: 3, state: "published" });
  // The same action item reuses its work item rather than making another.
  expect(second.body.actionItems[0].workItemId).toBe(crane);
  expect((await api.get(`/projects/${s.project}/work`)).body.total).toBe(2);

  const detail = (await api.get(M())).body;
  expect(detail.minutes.map((m: any) => [m.revision, m.state])).toEqual([
    [1, "draft"],
    [2, "superseded"],
    [3, "published"],
  ]);
  const superseded = detail.minutes[1];
  const { state: _a, supersededAt, supersededBy, ...before } = first.body;
  const { state: _b, supersededAt: _c, supersededBy: _d, ...after } = superseded;
  expect(after).toEqual(before);
  expect(supersededBy).toBeNull();
  expect(superseded).toMatchObject({ supersededBy: second.body.id, supersededAt: clock.now().toISOString() });
  expect(supersededAt).toBeNull();
  expect(superseded.content).toBe("# Minutes\nBudget approved.");
});

test("scope: another project's member gets 404, another partner 403; closed meetings refuse changes", async () => {
  expectProblem(await api.as("eve").get(M()), 404, "not_found");
  expectProblem(await api.as("eve").post(`${M()}/minutes`, { content: "x" }), 404, "not_found");
  expectProblem(await api.get(`/projects/${s.other}/meetings/${s.meeting}`), 404, "not_found");
  const other = await partnerKit({ env: api.env, partnerId: "rival", family: "planning", users: { rita: "owner" } });
  // rita belongs to another partner only: acme's meeting is not hers to ask about.
  expectProblem(await api.as("rita").get(M()), 403, "partner_access_denied");
  other.close();

  await api.patch(`/projects/${s.project}/meetings/${s.meeting}`, { expectedVersion: 1, state: "cancelled" });
  expectProblem(await olga.post(`${M()}/agenda`, { items: [{ title: "X", durationMinutes: 5 }] }), 409, "state_conflict");
  expectProblem(await olga.post(`${M()}/minutes`, { content: "x" }), 409, "state_conflict");
});

test("a first-Monday series: only the dates its rule produces are occurrences, so its 2nd Monday is 400", async () => {
  const series = await olga.create(`/projects/${s.project}/meetings`, {
    title: "Monthly crew briefing",
    startsAt: "2026-06-01T07:00:00Z", // the first Monday of June
    endsAt: "2026-06-01T08:00:00Z",
    recurrence: "FREQ=MONTHLY;BYDAY=1MO;COUNT=6",
  });
  const occ = `/projects/${s.project}/meetings/${series.id}/occurrences`;
  // Second Monday, wrong time of day, a Tuesday, the 7th first Monday (past COUNT), and November 2 at 07:00Z
  // (10:00 winter time in Paris: the series keeps 09:00 local, so it is at 08:00Z then): not in the series.
  for (const at of ["2026-06-08T07:00:00Z", "2026-07-06T08:00:00Z", "2026-07-07T07:00:00Z", "2026-12-07T08:00:00Z", "2026-11-02T07:00:00Z"]) {
    expectFieldError(await olga.post(occ, { occurrenceAt: at, cancelled: true }), "/body/occurrenceAt", at);
  }
  // First Mondays are: July 6 (summer time), and November 2 (winter time; the 6th and last).
  const cancelled = await olga.post(occ, { occurrenceAt: "2026-07-06T09:00:00+02:00", cancelled: true });
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  expect(cancelled.body).toMatchObject({ occurrenceAt: "2026-07-06T07:00:00.000Z", cancelled: true });
  const moved = await olga.post(occ, { occurrenceAt: "2026-11-02T09:00:00+01:00", startsAt: "2026-11-03T08:00:00Z", endsAt: "2026-11-03T09:00:00Z" });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  expect((await api.get(`/projects/${s.project}/meetings/${series.id}`)).body.occurrences.map((o: any) => o.occurrenceAt)).toEqual([
    "2026-07-06T07:00:00.000Z",
    "2026-11-02T08:00:00.000Z",
  ]);
});

test("series are bounded: no SECONDLY or MINUTELY, an end by COUNT or UNTIL within 5 years and 2,000 occurrences, a strict rule", async () => {
  const create = (recurrence: string, startsAt = "2026-06-01T07:00:00Z") =>
    olga.post(`/projects/${s.project}/meetings`, { title: "Series", startsAt, endsAt: new Date(new Date(startsAt).getTime() + 1_800_000).toISOString(), recurrence });
  const refused: Array<[string, string]> = [
    ["FREQ=MINUTELY;COUNT=10", "MINUTELY"],
    ["FREQ=SECONDLY;COUNT=10", "SECONDLY"],
    ["FREQ=WEEKLY", "COUNT or UNTIL"],
    ["FREQ=WEEKLY;COUNT=3;UNTIL=20260701T000000Z", "not both"],
    ["FREQ=YEARLY;COUNT=7", "5 years"],
    ["FREQ=WEEKLY;UNTIL=20320101T000000Z", "5 years"],
    ["FREQ=HOURLY;COUNT=2001", "2000"],
    ["FREQ=HOURLY;UNTIL=20261231T000000Z", "more than 2000"],
    ["FREQ=WEEKLY;FOO=1;COUNT=2", "FOO"],
    ["FREQ=WEEKLY;COUNT=2;COUNT=3", "COUNT"],
    ["FREQ=WEEKLY;BYDAY=1MO;COUNT=3", "BYDAY"],
    ["FREQ=WEEKLY;UNTIL=20260701;COUNT=2", "UNTIL"],
    ["FREQ=WEEKLY;UNTIL=20260701", "UNTIL"],
    ["FREQ=WEEKLY;INTERVAL=0;COUNT=2", "INTERVAL"],
    ["FREQ=MONTHLY;BYMONTHDAY=32;COUNT=2", "BYMONTHDAY"],
    // startsAt (a Monday) must itself be an occurrence: RFC 5545 counts DTSTART as the first.
    ["FREQ=WEEKLY;BYDAY=TU;COUNT=3", "startsAt"],
    // Rules that can never produce their dates are refused at once, not expanded for years.
    ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2", "BYMONTHDAY"],
    ["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2", "BYMONTHDAY"],
    ["FREQ=DAILY;INTERVAL=7;BYDAY=TU;COUNT=3", "BYDAY"],
  ];
  for (const [rule, says] of refused) {
    const started = performance.now();
    const res = await create(rule);
    expectFieldError(res, "/body/recurrence", rule);
    expect(res.body.errors[0].message, rule).toContain(says);
    expect(performance.now() - started, rule).toBeLessThan(2000);
  }
  // What the bounds allow: a daily series of five years, a leap-day series inside them, weekdays until the end of July.
  expect((await create("FREQ=DAILY;COUNT=1827")).status).toBe(201);
  expect((await create("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20320301T000000Z", "2028-02-29T07:00:00Z")).status).toBe(201);
  const weekdays = await create("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20260731T235959Z");
  expect(weekdays.status, JSON.stringify(weekdays.body)).toBe(201);

  // A PATCH is checked as the meeting would be stored: moving the start off the rule is refused, and so is a faster rule.
  const id = weekdays.body.id;
  expectFieldError(await olga.patch(`/projects/${s.project}/meetings/${id}`, { expectedVersion: 1, startsAt: "2026-06-06T07:00:00Z", endsAt: "2026-06-06T07:30:00Z" }), "/body/recurrence");
  expectFieldError(await olga.patch(`/projects/${s.project}/meetings/${id}`, { expectedVersion: 1, recurrence: "FREQ=MINUTELY;COUNT=5" }), "/body/recurrence");
  const cleared = await olga.patch(`/projects/${s.project}/meetings/${id}`, { expectedVersion: 1, recurrence: null, startsAt: "2026-06-06T07:00:00Z", endsAt: "2026-06-06T07:30:00Z" });
  expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
  expect(cleared.body.recurrence).toBeNull();

  // The JSON import checks meeting records the same way.
  const imported = await olga.post(`/projects/${s.project}/imports`, {
    mode: "preview",
    records: [{ collection: "meetings", data: { title: "Import", startsAt: "2026-06-01T07:00:00Z", endsAt: "2026-06-01T07:30:00Z", recurrence: "FREQ=WEEKLY" } }],
  });
  expect(imported.body.errors.map((e: any) => e.path)).toEqual(["/body/records/0/data/recurrence"]);
});

test("a series stored before the bounds stays editable, but takes no exceptions until its rule is valid", async () => {
  const series = await olga.create(`/projects/${s.project}/meetings`, { title: "Old stand-up", startsAt: "2026-06-01T07:00:00Z", endsAt: "2026-06-01T07:15:00Z", recurrence: "FREQ=WEEKLY;COUNT=4" });
  // As a row written before series had to end looks: an open-ended weekly rule.
  await api.inTenant((ctx) =>
    withTx(ctx, async (ctx) => {
      const [row] = await writer(ctx).select().from(planningRecords).where(eq(planningRecords.id, series.id));
      await writer(ctx).update(planningRecords).set({ data: { ...row!.data, recurrence: "FREQ=WEEKLY" } }).where(eq(planningRecords.id, series.id));
    }),
  );
  const occ = `/projects/${s.project}/meetings/${series.id}/occurrences`;
  const refused = await olga.post(occ, { occurrenceAt: "2026-06-08T07:00:00Z", cancelled: true });
  expectProblem(refused, 409, "state_conflict");
  expect(refused.body.detail).toContain("COUNT or UNTIL");
  // Edits that leave the series alone go through; one that sets a bounded rule makes it take exceptions again.
  expect((await olga.patch(`/projects/${s.project}/meetings/${series.id}`, { expectedVersion: 1, title: "Stand-up" })).status).toBe(200);
  expect((await olga.patch(`/projects/${s.project}/meetings/${series.id}`, { expectedVersion: 2, recurrence: "FREQ=WEEKLY;COUNT=10" })).status).toBe(200);
  expect((await olga.post(occ, { occurrenceAt: "2026-06-08T07:00:00Z", cancelled: true })).status).toBe(200);
});
