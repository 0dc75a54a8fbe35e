// A production meeting told as a story: an ordered agenda built in two calls, a
// draft of the minutes and then two published revisions — the first superseded and
// unchanged, action items turned into work items once — and the limits around it.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

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
