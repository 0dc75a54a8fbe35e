// My work across two projects: olga's tasks, requirements and meetings, walked
// page by page with exact totals; max (a reviewer) also sees change sets awaiting
// review; finished items and other people's drop out, and so do projects the
// caller has left.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", olga: "operator", max: "manager" } });
afterAll(() => api.close());
const olga = api.as("olga");
const max = api.as("max");
const ids = { p1: "", p2: "", expected: [] as Array<[string, string]>, doneTask: "" };

beforeAll(async () => {
  const members = [{ userId: "olga", role: "member" }, { userId: "max", role: "member" }];
  ids.p1 = (await api.create("/projects", { name: "Harbour Festival", timeZone: "Europe/Berlin", members })).id;
  ids.p2 = (await api.create("/projects", { name: "Winter Market", timeZone: "Europe/Berlin", members })).id;
  const mine: Array<[string, string]> = [];
  for (const [p, title] of [[ids.p1, "Book stage"], [ids.p2, "Order huts"], [ids.p1, "Hire stewards"]] as const) {
    mine.push(["task", (await olga.create(`/projects/${p}/work`, { title, assigneeUserId: "olga" })).id]);
  }
  mine.push(["requirement", (await olga.create(`/projects/${ids.p2}/requirements`, { title: "Fire permit", ownerUserId: "olga", dueOn: "2026-11-01" })).id]);
  mine.push([
    "meeting",
    (await api.create(`/projects/${ids.p1}/meetings`, { title: "Kick-off", startsAt: "2026-05-10T08:00:00Z", endsAt: "2026-05-10T09:00:00Z", attendeeUserIds: ["olga", "max"] })).id,
  ]);
  // Not olga's: someone else's task, and a task of hers already done.
  await api.create(`/projects/${ids.p1}/work`, { title: "Budget", assigneeUserId: "max" });
  const done = await olga.create(`/projects/${ids.p2}/work`, { title: "Old task", assigneeUserId: "olga" });
  await olga.patch(`/projects/${ids.p2}/work/${done.id}`, { expectedVersion: 1, state: "done" });
  ids.doneTask = done.id;
  mine.push(["task", (await olga.create(`/projects/${ids.p2}/work`, { title: "Lights", assigneeUserId: "olga" })).id]);
  ids.expected = mine.reverse(); // newest change first
});

test("olga's items across both projects, walked with exact paging", async () => {
  const seen: Array<[string, string]> = [];
  let cursor: string | undefined;
  const pages: number[] = [];
  do {
    const res = await olga.get("/my-work", { query: { limit: 2, cursor } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(6);
    pages.push(res.body.items.length);
    for (const it of res.body.items) seen.push([it.kind, it.id]);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  expect(pages).toEqual([2, 2, 2]);
  expect(seen).toEqual(ids.expected);
  const first = (await olga.get("/my-work")).body.items;
  expect(new Set(first.map((i: any) => i.projectName))).toEqual(new Set(["Harbour Festival", "Winter Market"]));
  expect(first.find((i: any) => i.kind === "requirement")).toMatchObject({ title: "Fire permit", state: "draft", dueAt: "2026-11-01", projectId: ids.p2 });
  expect(first.some((i: any) => i.id === ids.doneTask)).toBe(false);
});

test("kind filters; a cursor of other filters is refused", async () => {
  const tasks = await olga.get("/my-work", { query: { kind: "task,meeting", limit: 1 } });
  expect(tasks.body.total).toBe(5);
  expect(tasks.body.filters).toEqual({ kind: ["task", "meeting"] });
  expectProblem(await olga.get("/my-work", { query: { kind: "task", cursor: tasks.body.nextCursor } }), 400, "invalid_cursor");
});

test("reviews: change sets by others awaiting a reviewer's decision", async () => {
  const ev = await api.post(`/projects/${ids.p1}/canonical-command`, {
    command: "create_event",
    data: { name: "Harbour", startsAt: "2026-08-14T14:00:00Z", endsAt: "2026-08-14T22:00:00Z", timeZone: "Europe/Berlin" },
  });
  await api.post(`/projects/${ids.p1}/link-event`, { eventId: ev.body.id });
  const set = await olga.create(`/projects/${ids.p1}/change-sets`, {
    title: "Later start",
    operations: [{ op: "update", target: { type: "event", id: ev.body.id }, expectedUpdatedAt: ev.body.updatedAt, changes: { startsAt: "2026-08-14T15:00:00Z" } }],
  });
  const maxWork = await max.get("/my-work");
  expect(maxWork.body.items[0]).toMatchObject({ kind: "review", id: set.id, state: "submitted", dueAt: null, projectName: "Harbour Festival" });
  // Max's own items: the budget task and the kick-off meeting.
  expect(maxWork.body.total).toBe(3);
  // The author is no reviewer of her own set, and olga lacks planning_review anyway.
  expect((await olga.get("/my-work", { query: { kind: "review" } })).body.total).toBe(0);
  await max.post(`/projects/${ids.p1}/change-sets/${set.id}/review`, { decision: "reject", reason: "Permit says 14:00" });
  expect((await max.get("/my-work", { query: { kind: "review" } })).body.total).toBe(0);
});

test("a project the caller left drops out of their work", async () => {
  const ws = await api.get(`/projects/${ids.p2}`);
  await api.patch(`/projects/${ids.p2}`, { expectedVersion: ws.body.version, members: [{ userId: "pia", role: "lead" }, { userId: "max", role: "member" }] });
  const res = await olga.get("/my-work");
  expect(res.body.total).toBe(3);
  expect(res.body.items.every((i: any) => i.projectId === ids.p1)).toBe(true);
});
