// GET /api/planning/events/stream: every audited change of the plan reaches the members of its
// project as it commits, and nobody else (another project's records do not exist for the caller,
// so neither do their events); planning_admin sees every project; a member removed from a
// project stops hearing of it at once.
import { afterAll, expect, test } from "bun:test";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { readSse, type SseClient } from "../../../test/fakes/sse-client.ts";

const api = await partnerKit({
  partnerId: "live-plan",
  family: "planning",
  users: { lea: "operator", mo: "operator", bea: "operator", pat: "admin" },
});
afterAll(() => api.close());

async function stream(kit: Kit, user: string): Promise<SseClient> {
  const res = await kit.env.app.fetch(new Request(`http://test.local${kit.url("/events/stream")}`, { headers: { authorization: `Bearer ${await kit.env.token(user)}` } }));
  expect(res.status).toBe(200);
  const c = readSse(res);
  await c.waitFor((x) => x.messages.some((m) => m.event === "ready"));
  return c;
}

const seen = (c: SseClient) => c.events().map((m) => [m.event, m.json.data.projectId, m.json.data.recordType, m.json.data.action]);

test("a member of project A hears of A's changes and nothing of B's; planning_admin hears of both", async () => {
  const [lea, mo, bea, pat] = [await stream(api, "lea"), await stream(api, "mo"), await stream(api, "bea"), await stream(api, "pat")];
  const a = await api.as("lea").create("/projects", { name: "Summer fair", timeZone: "Europe/Berlin", members: [{ userId: "mo", role: "member" }] });
  const b = await api.as("bea").create("/projects", { name: "Board retreat", timeZone: "Europe/Berlin" });
  const work = await api.as("mo").create(`/projects/${a.id}/work`, { title: "Book the stage" });
  await api.as("bea").create(`/projects/${b.id}/work`, { title: "Secret venue" });
  const meeting = await api.as("lea").create(`/projects/${a.id}/meetings`, { title: "Kick-off", startsAt: "2026-07-01T09:00:00Z", endsAt: "2026-07-01T10:00:00Z" });

  await pat.waitFor((c) => c.events().length === 5, 5000, "five events for planning_admin");
  await lea.waitFor((c) => c.events().length === 3, 5000, "A's three events");
  await bea.waitFor((c) => c.events().length === 2, 5000, "B's two events");
  const ofA = [
    ["planning.project.changed", a.id, "project", "created"],
    ["planning.record.changed", a.id, "work", "created"],
    ["planning.meeting.changed", a.id, "meetings", "created"],
  ];
  expect(seen(lea)).toEqual(ofA);
  expect(seen(mo)).toEqual(ofA);
  expect(seen(bea)).toEqual([
    ["planning.project.changed", b.id, "project", "created"],
    ["planning.record.changed", b.id, "work", "created"],
  ]);
  expect(seen(pat).map((e) => e[1])).toEqual([a.id, b.id, a.id, b.id, a.id]);
  // The event names the record; its content is read through the API.
  expect(lea.events()[1]!.json.data).toEqual({ projectId: a.id, recordType: "work", recordId: work.id, action: "created" });
  expect(JSON.stringify(pat.events())).not.toContain("Secret venue");

  // Mo leaves project A: the project change reaches the members who remain, and Mo hears nothing more of A.
  const moved = await api.as("lea").patch(`/projects/${a.id}`, { expectedVersion: a.version, members: [{ userId: "lea", role: "lead" }] });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  await api.as("lea").create(`/projects/${a.id}/work`, { title: "Hire chairs" });
  await lea.waitFor((c) => c.events().length === 5, 5000, "the membership change and the new work");
  expect(seen(lea).slice(3)).toEqual([
    ["planning.project.changed", a.id, "project", "updated"],
    ["planning.record.changed", a.id, "work", "created"],
  ]);
  await Bun.sleep(100);
  expect(mo.events()).toHaveLength(3);
  expect(lea.events()[2]!.json.data).toEqual({ projectId: a.id, recordType: "meetings", recordId: meeting.id, action: "created", meetingId: meeting.id });
  for (const c of [lea, mo, bea, pat]) await c.close();
});

test("the assets stream carries no planning event, and the planning stream no asset event", async () => {
  const assets = await partnerKit({ env: api.env, partnerId: "live-plan", family: "assets", users: {} }).catch(() => undefined);
  expect(assets).toBeDefined();
  const res = await api.env.app.fetch(
    new Request(`http://test.local${assets!.url("/events/stream")}`, { headers: { authorization: `Bearer ${await api.env.token("pat")}` } }),
  );
  const c = readSse(res);
  await c.waitFor((x) => x.messages.some((m) => m.event === "ready"));
  const plan = await stream(api, "pat");
  await api.as("pat").create("/projects", { name: "Invisible to assets", timeZone: "UTC" });
  const loc = await assets!.as("pat").create("/locations", { name: "Depot", kind: "site" });
  await assets!.as("pat").create("/assets", { name: "Tent", ownership: "owned", locationId: loc.id });
  await plan.waitFor((x) => x.events().length === 1);
  await c.waitFor((x) => x.events().length === 1);
  expect(plan.events()[0]!.event).toBe("planning.project.changed");
  expect(c.events()[0]!.event).toBe("asset.created");
  await c.close();
  await plan.close();
});
