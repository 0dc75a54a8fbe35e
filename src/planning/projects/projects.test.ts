// A festival's planning project, told as a story: created by its lead, linked once
// to its canonical event, given departments, work with dependencies (a loop is
// refused and named), requirements moving through their states, a risk and a
// gate; and the project's scope: invisible (404) to a member of another project,
// refused (403) to another partner's user.
import { test, expect, afterAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { planningAudit } from "../audit/audit.tables.ts";

const T0 = new Date("2026-05-04T08:00:00.000Z");
const clock = new MutableClock(new Date(T0));
// pia leads (admin: she may run canonical commands); olga plans; vic only watches;
// otto works in another project only; stranger belongs to another partner.
const api = await partnerKit({
  family: "planning",
  clock,
  tickMs: 1000,
  users: { pia: "admin", olga: "operator", vic: "viewer", otto: "operator" },
});
afterAll(() => api.close());
await api.env.provision("other-co");
await api.env.member("other-co", "stranger", "owner");

const olga = api.as("olga");
const otto = api.as("otto");
const s = { project: "", version: 0, event: "", tier: "", depts: [] as string[], work: [] as string[], req: "", reqVersion: 0, risk: "", gate: "" };

describe("a festival project", () => {
  test("created by its lead with members; the creator is always a lead", async () => {
    const res = await api.post("/projects", {
      name: "Harbour Festival 2026",
      timeZone: "Europe/Berlin",
      startsOn: "2026-08-14",
      endsOn: "2026-08-16",
      members: [
        { userId: "olga", role: "member" },
        { userId: "vic", role: "viewer" },
        { userId: "pia", role: "viewer" },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ state: "concept", version: 1, eventId: null, createdBy: "pia", timeZone: "Europe/Berlin" });
    expect(res.body.members).toEqual([
      { userId: "olga", role: "member" },
      { userId: "pia", role: "lead" },
      { userId: "vic", role: "viewer" },
    ]);
    expect(res.headers.get("location")).toBe(`/api/planning/projects/${res.body.id}?partnerId=${api.partnerId}`);
    s.project = res.body.id;
    s.version = res.body.version;
  });

  test("bad input: an unknown time zone, a stranger as member, endsOn before startsOn", async () => {
    expectFieldError(await api.post("/projects", { name: "X", timeZone: "Mars/Olympus" }), "/body/timeZone");
    expectFieldError(await api.post("/projects", { name: "X", timeZone: "UTC", members: [{ userId: "nobody", role: "member" }] }), "/body/members/0/userId");
    expectFieldError(await api.post("/projects", { name: "X", timeZone: "UTC", startsOn: "2026-02-02", endsOn: "2026-02-01" }), "/body/endsOn");
  });

  test("moves per contract §9; a stale version or a skipped state is 409", async () => {
    const P = `/projects/${s.project}`;
    expectProblem(await api.patch(P, { expectedVersion: s.version, state: "handed_off" }), 409, "state_conflict");
    const active = await api.patch(P, { expectedVersion: s.version, state: "active" });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ state: "active", version: 2 });
    expectProblem(await api.patch(P, { expectedVersion: 1, name: "Renamed" }), 409, "version_conflict");
    const paused = await api.patch(P, { expectedVersion: 2, state: "paused" });
    // A paused project resumes to where it was, not elsewhere.
    expectProblem(await api.patch(P, { expectedVersion: 3, state: "readiness" }), 409, "state_conflict");
    const resumed = await api.patch(P, { expectedVersion: paused.body.version, state: "active" });
    expect(resumed.body.state).toBe("active");
    s.version = resumed.body.version;
    // Only leads replace the member list.
    expectProblem(await olga.patch(P, { expectedVersion: s.version, members: [{ userId: "olga", role: "lead" }] }), 403, "capability_denied");
  });

  test("linked once to a canonical event made by a direct command", async () => {
    const made = await api.post(`/projects/${s.project}/canonical-command`, {
      command: "create_event",
      data: { name: "Harbour Festival", venue: "Pier 4", startsAt: "2026-08-14T16:00:00+02:00", endsAt: "2026-08-16T23:00:00+02:00", timeZone: "Europe/Berlin" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ type: "event", status: "draft", startsAt: "2026-08-14T14:00:00.000Z" });
    s.event = made.body.id;
    // Before the link, the project has no event to sell tiers of.
    expectProblem(
      await api.post(`/projects/${s.project}/canonical-command`, { command: "create_tier", data: { name: "Day pass", price: { amount: "49.5", currency: "EUR" } } }),
      409,
      "state_conflict",
    );
    expectFieldError(await api.post(`/projects/${s.project}/link-event`, { eventId: Bun.randomUUIDv7() }), "/body/eventId");
    const linked = await api.post(`/projects/${s.project}/link-event`, { eventId: s.event });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ eventId: s.event, state: "active", linkedAt: clock.now().toISOString() });
    expectProblem(await api.post(`/projects/${s.project}/link-event`, { eventId: s.event }), 409, "state_conflict");

    const tier = await api.post(`/projects/${s.project}/canonical-command`, { command: "create_tier", data: { name: "Day pass", price: { amount: "49.5", currency: "EUR" }, capacity: 5000 } });
    expect(tier.body).toMatchObject({ type: "tier", eventId: s.event, price: { amount: "49.50", currency: "EUR" } });
    s.tier = tier.body.id;
    await api.post(`/projects/${s.project}/canonical-command`, { command: "create_inclusion", data: { name: "Ferry ride", tierId: s.tier } });
    await api.post(`/projects/${s.project}/canonical-command`, { command: "create_add_on", data: { name: "Parking", price: { amount: "12", currency: "EUR" } } });
    await api.post(`/projects/${s.project}/canonical-command`, { command: "create_shop_item", data: { name: "T-shirt", price: { amount: "25", currency: "EUR" }, stock: 300 } });
    // A price as a JSON number is refused: money is a decimal string.
    expectFieldError(
      await api.post(`/projects/${s.project}/canonical-command`, { command: "create_tier", data: { name: "VIP", price: { amount: 99, currency: "EUR" } } }),
      "/body/data/price/amount",
    );
    const catalog = await olga.get(`/projects/${s.project}/event-catalog`);
    expect(catalog.status).toBe(200);
    expect(catalog.body.event.id).toBe(s.event);
    expect(catalog.body.tiers.map((t: any) => t.name)).toEqual(["Day pass"]);
    expect(catalog.body.inclusions[0]).toMatchObject({ name: "Ferry ride", tierId: s.tier });
    expect(catalog.body.addOns[0].price).toEqual({ amount: "12.00", currency: "EUR" });
    expect(catalog.body.shopItems[0]).toMatchObject({ name: "T-shirt", stock: 300 });
    // An update names the record's current updatedAt.
    expectProblem(
      await api.post(`/projects/${s.project}/canonical-command`, { command: "update_tier", targetId: s.tier, expectedUpdatedAt: "2026-01-01T00:00:00Z", data: { capacity: 10 } }),
      409,
      "version_conflict",
    );
    // Canonical commands need planning_apply.
    expectProblem(await olga.post(`/projects/${s.project}/canonical-command`, { command: "create_event", data: made.body }), 403, "capability_denied");
  });

  test("departments in one batch; a batch over 100 is refused whole", async () => {
    const res = await olga.post(`/projects/${s.project}/departments`, { records: [{ name: "Stage", leadUserId: "olga" }, { name: "Security" }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.records.map((d: any) => [d.name, d.leadUserId, d.version])).toEqual([
      ["Stage", "olga", 1],
      ["Security", null, 1],
    ]);
    s.depts = res.body.records.map((d: any) => d.id);
    const tooMany = await olga.post(`/projects/${s.project}/departments`, { records: Array.from({ length: 101 }, (_, i) => ({ name: `D${i}` })) });
    expectFieldError(tooMany, "/body/records");
    // One bad record refuses the batch, naming it.
    expectFieldError(await olga.post(`/projects/${s.project}/departments`, { records: [{ name: "Bar" }, { name: "Catering", leadUserId: "otto" }] }), "/body/records/1/leadUserId");
    const list = await olga.get(`/projects/${s.project}/departments`);
    expect(list.body.total).toBe(2);
  });

  test("work with dependencies: every kind, lags, and a loop refused with its cycle named", async () => {
    for (const title of ["Book stage", "Rig lights", "Sound check"]) {
      const w = await olga.create(`/projects/${s.project}/work`, { title, assigneeUserId: "olga", departmentId: s.depts[0], dueAt: "2026-08-10T12:00:00Z" });
      expect(w).toMatchObject({ state: "open", departmentId: s.depts[0], calendarId: null });
      s.work.push(w.id);
    }
    const [a, b, c] = s.work as [string, string, string];
    const ab = await olga.post(`/projects/${s.project}/dependencies`, { fromId: a, toId: b, kind: "finish_to_start" });
    expect(ab.status).toBe(201);
    expect(ab.body).toMatchObject({ fromId: a, toId: b, kind: "finish_to_start", lagMinutes: 0 });
    expect((await olga.post(`/projects/${s.project}/dependencies`, { fromId: b, toId: c, kind: "start_to_start", lagMinutes: 60 })).status).toBe(201);
    const loop = await olga.post(`/projects/${s.project}/dependencies`, { fromId: c, toId: a, kind: "finish_to_finish" });
    expectProblem(loop, 409, "cycle_detected");
    expect(loop.body.cycle).toEqual([c, a, b, c]);
    expectProblem(await olga.post(`/projects/${s.project}/dependencies`, { fromId: a, toId: a, kind: "start_to_finish" }), 409, "cycle_detected");
    expectProblem(await olga.post(`/projects/${s.project}/dependencies`, { fromId: a, toId: b, kind: "start_to_finish" }), 409, "duplicate");
    expectFieldError(await olga.post(`/projects/${s.project}/dependencies`, { fromId: a, toId: s.depts[0], kind: "finish_to_start" }), "/body/toId");
    // Removing b → c opens the way for c → a.
    expect((await olga.delete(`/projects/${s.project}/dependencies?fromId=${b}&toId=${c}`)).status).toBe(204);
    expectProblem(await olga.delete(`/projects/${s.project}/dependencies?fromId=${b}&toId=${c}`), 404, "not_found");
    expect((await olga.post(`/projects/${s.project}/dependencies`, { fromId: c, toId: a, kind: "finish_to_start", lagMinutes: -30 })).status).toBe(201);
    // The graph as it stands is listed (newest first, exact total, paged), to a viewer too.
    const vic = api.as("vic");
    const first = await vic.get(`/projects/${s.project}/dependencies?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(2);
    expect(first.body.items).toMatchObject([{ fromId: c, toId: a, kind: "finish_to_start", lagMinutes: -30 }]);
    const second = await vic.get(`/projects/${s.project}/dependencies?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.items).toMatchObject([{ fromId: a, toId: b, kind: "finish_to_start", lagMinutes: 0 }]);
    expect(second.body.nextCursor).toBeNull();
    const intoB = await vic.get(`/projects/${s.project}/dependencies?recordId=${b}`);
    expect(intoB.body.items.map((d: { fromId: string; toId: string }) => [d.fromId, d.toId])).toEqual([[a, b]]);
    expect(intoB.body.filters).toEqual({ recordId: b });
    expectProblem(await otto.get(`/projects/${s.project}/dependencies`), 404, "not_found");
  });

  test("a requirement moves through its states; skipped moves and stale versions are 409", async () => {
    const r = await olga.create(`/projects/${s.project}/requirements`, {
      title: "Stage load rating certificate",
      ownerUserId: "olga",
      dueOn: "2026-07-01",
      acceptanceCriteria: "Signed by a structural engineer",
    });
    expect(r).toMatchObject({ state: "draft", ownerUserId: "olga", dueOn: "2026-07-01", version: 1 });
    s.req = r.id;
    const P = `/projects/${s.project}/requirements/${r.id}`;
    expectProblem(await olga.patch(P, { expectedVersion: 1, state: "accepted" }), 409, "state_conflict");
    let v = 1;
    for (const state of ["assigned", "in_progress", "submitted", "revision_requested", "submitted", "accepted"]) {
      const res = await olga.patch(P, { expectedVersion: v, state });
      expect(res.status, `${state}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.state).toBe(state);
      v = res.body.version;
    }
    expect(v).toBe(7);
    expectProblem(await olga.patch(P, { expectedVersion: v, state: "in_progress" }), 409, "state_conflict");
    expectProblem(await olga.patch(P, { expectedVersion: 3, title: "Renamed" }), 409, "version_conflict");
    // A requirement expires only after its due day in the project's time zone.
    const late = await olga.create(`/projects/${s.project}/requirements`, { title: "Noise permit", ownerUserId: "olga", dueOn: "2026-05-04" });
    await olga.patch(`/projects/${s.project}/requirements/${late.id}`, { expectedVersion: 1, state: "assigned" });
    expectProblem(await olga.patch(`/projects/${s.project}/requirements/${late.id}`, { expectedVersion: 2, state: "expired" }), 409, "state_conflict");
    clock.current = new Date("2026-05-04T22:30:00.000Z"); // 00:30 on 5 May in Berlin
    expect((await olga.patch(`/projects/${s.project}/requirements/${late.id}`, { expectedVersion: 2, state: "expired" })).body.state).toBe("expired");
    const list = await olga.get(`/projects/${s.project}/requirements`, { query: { state: "accepted,expired" } });
    expect(list.body.total).toBe(2);
    expect(list.body.filters).toEqual({ state: ["accepted", "expired"] });
  });

  test("a risk in ISO 31000 terms, with its level", async () => {
    const body = {
      title: "Storm on the main day",
      riskSource: "Weather",
      consequence: "Evacuation of the open-air stage",
      likelihood: 4,
      impact: 5,
      ownerUserId: "olga",
      treatment: { option: "change_consequences", plan: "Wind monitoring; evacuation plan rehearsed" },
      reviewOn: "2026-07-15",
    };
    expectFieldError(await olga.post(`/projects/${s.project}/risks`, { ...body, likelihood: 6 }), "/body/likelihood");
    expectFieldError(await olga.post(`/projects/${s.project}/risks`, { ...body, treatment: { option: "ignore" } }), "/body/treatment/option");
    const risk = await olga.create(`/projects/${s.project}/risks`, body);
    expect(risk).toMatchObject({ level: 20, treatment: body.treatment, description: null });
    const lowered = await olga.patch(`/projects/${s.project}/risks/${risk.id}`, { expectedVersion: 1, likelihood: 2 });
    expect(lowered.body).toMatchObject({ level: 10, version: 2 });
    s.risk = risk.id;
  });

  test("a gate: go only when every criterion is met; the decider is the server's", async () => {
    const gate = await olga.create(`/projects/${s.project}/gates`, {
      title: "Go/no-go for ticket sales",
      criteria: [{ text: "Permits granted" }, { text: "Budget signed off", met: true }],
      dueOn: "2026-06-01",
    });
    expect(gate.decision).toBeNull();
    expect(gate.criteria).toEqual([
      { text: "Permits granted", met: false },
      { text: "Budget signed off", met: true },
    ]);
    const P = `/projects/${s.project}/gates/${gate.id}`;
    const early = await olga.patch(P, { expectedVersion: 1, decision: { outcome: "go", reason: "Looks good" } });
    expectProblem(early, 409, "state_conflict");
    expect(early.body.unmetCriteria).toEqual(["Permits granted"]);
    expectFieldError(await olga.patch(P, { expectedVersion: 1, decision: { outcome: "go", reason: "x", decidedBy: "pia" } }), "/body/decision/decidedBy");
    const go = await olga.patch(P, {
      expectedVersion: 1,
      criteria: [{ text: "Permits granted", met: true }, { text: "Budget signed off", met: true }],
      decision: { outcome: "go", reason: "All criteria met" },
    });
    expect(go.status, JSON.stringify(go.body)).toBe(200);
    expect(go.body.decision).toEqual({ outcome: "go", reason: "All criteria met", decidedBy: "olga", decidedAt: clock.now().toISOString() });
    s.gate = gate.id;
  });

  test("reminders: absolute or relative to the event or a meeting, never both", async () => {
    const meeting = await olga.create(`/projects/${s.project}/meetings`, {
      title: "Production meeting",
      startsAt: "2026-06-02T08:00:00Z",
      endsAt: "2026-06-02T09:00:00Z",
      attendeeUserIds: ["olga", "pia"],
      recurrence: "FREQ=WEEKLY;BYDAY=TU;COUNT=8",
    });
    expect(meeting).toMatchObject({ state: "scheduled", attendeeUserIds: ["olga", "pia"] });
    const before = await olga.create(`/projects/${s.project}/reminders`, { title: "Agenda due", audience: "members", offsetMinutes: -1440, relativeTo: meeting.id });
    expect(before).toMatchObject({ channel: "email", at: null, offsetMinutes: -1440, relativeTo: meeting.id });
    const fixed = await olga.create(`/projects/${s.project}/reminders`, { title: "Gates open", audience: ["olga", "vic"], at: "2026-08-14T15:00:00+02:00" });
    expect(fixed.at).toBe("2026-08-14T13:00:00.000Z");
    expectFieldError(await olga.post(`/projects/${s.project}/reminders`, { title: "Both", audience: "project", at: "2026-08-14T15:00:00Z", offsetMinutes: 5, relativeTo: "event_start" }), "/body/at");
    expectFieldError(await olga.post(`/projects/${s.project}/reminders`, { title: "Neither", audience: "project" }), "/body/offsetMinutes");
    expectFieldError(await olga.post(`/projects/${s.project}/reminders`, { title: "To whom?", audience: ["otto"], relativeTo: "event_end", offsetMinutes: 0 }), "/body/audience/0");
    // Switching a reminder to absolute time clears the relative form.
    const moved = await olga.patch(`/projects/${s.project}/reminders/${before.id}`, { expectedVersion: 1, at: "2026-06-01T08:00:00Z", offsetMinutes: null, relativeTo: null });
    expect(moved.body).toMatchObject({ at: "2026-06-01T08:00:00.000Z", offsetMinutes: null, relativeTo: null, version: 2 });
  });

  test("the workspace: counts, gates, risks and next meetings", async () => {
    const ws = await olga.get(`/projects/${s.project}`);
    expect(ws.status).toBe(200);
    expect(ws.body.counts).toEqual({ departments: 2, calendars: 0, work: 3, requirements: 2, meetings: 1, risks: 1, gates: 1, reminders: 2 });
    expect(ws.body.gates.map((g: any) => g.id)).toEqual([s.gate]);
    expect(ws.body.risks.map((r: any) => r.id)).toEqual([s.risk]);
    expect(ws.body.nextMeetings.map((m: any) => m.title)).toEqual(["Production meeting"]);
    expect(ws.body.eventId).toBe(s.event);
  });

  test("every write is audited with its actor and the server time", async () => {
    const trail = await api.read((q) => q.select().from(planningAudit).where(eq(planningAudit.recordId, s.req)));
    expect(trail.map((a) => a.action)).toEqual(["created", "moved_to_assigned", "moved_to_in_progress", "moved_to_submitted", "moved_to_revision_requested", "moved_to_submitted", "moved_to_accepted"]);
    expect(new Set(trail.map((a) => a.actorId))).toEqual(new Set(["olga"]));
    expect(trail.every((a) => a.projectId === s.project && a.recordedAt >= T0.toISOString())).toBe(true);
  });
});

describe("scope", () => {
  test("a member of another project: the project and its records are 404, and not listed", async () => {
    const own = await otto.create("/projects", { name: "Winter market", timeZone: "Europe/Vienna" });
    expect((await otto.get("/projects")).body.items.map((p: any) => p.id)).toEqual([own.id]);
    expectProblem(await otto.get(`/projects/${s.project}`), 404, "not_found");
    expectProblem(await otto.get(`/projects/${s.project}/work`), 404, "not_found");
    expectProblem(await otto.get(`/projects/${s.project}/work/${s.work[0]}`), 404, "not_found");
    expectProblem(await otto.patch(`/projects/${s.project}/work/${s.work[0]}`, { expectedVersion: 1, title: "Mine now" }), 404, "not_found");
    expectProblem(await otto.post(`/projects/${s.project}/work`, { title: "Sneak in" }), 404, "not_found");
    // An id of one project under another project is out of scope too.
    expectProblem(await otto.get(`/projects/${own.id}/work/${s.work[0]}`), 404, "not_found");
    expectProblem(await olga.get(`/projects/${own.id}`), 404, "not_found");
    // planning_admin holders (pia, an admin) see every project.
    expect((await api.get(`/projects/${own.id}`)).status).toBe(200);
  });

  test("a project viewer reads but cannot change; another partner's user is the pipeline's 403", async () => {
    const vic = api.as("vic");
    expect((await vic.get(`/projects/${s.project}/risks`)).body.total).toBe(1);
    expectProblem(await vic.post(`/projects/${s.project}/work`, { title: "x" }), 403, "capability_denied");
    expectProblem(await api.as("stranger").get(`/projects/${s.project}`), 403, "partner_access_denied");
    expectProblem(await api.as("stranger").get("/projects"), 403, "partner_access_denied");
  });

  test("a handed-off project's plan is frozen", async () => {
    const P = `/projects/${s.project}`;
    let v = (await api.get(P)).body.version;
    for (const state of ["readiness", "handed_off"]) v = (await api.patch(P, { expectedVersion: v, state })).body.version;
    expectProblem(await olga.post(`${P}/work`, { title: "Late task" }), 409, "state_conflict");
    expectProblem(await api.patch(P, { expectedVersion: v, name: "Renamed" }), 409, "state_conflict");
    expect((await api.patch(P, { expectedVersion: v, state: "archived" })).body.state).toBe("archived");
  });
});
