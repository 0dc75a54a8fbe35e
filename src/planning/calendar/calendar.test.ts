// The project calendar read by a real iCalendar parser (ical.js): meetings and due
// work, a changed meeting keeping its UID with a higher SEQUENCE, a cancelled one
// staying as CANCELLED, a weekly series with a cancelled and a moved occurrence,
// and the private subscription URL a calendar app fetches without headers — built
// on the configured public base URL, never on the request's Host header.
import { test, expect, afterAll, beforeAll } from "bun:test";
import ICAL from "ical.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../env.ts";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", olga: "operator", eve: "operator" } });
afterAll(() => api.close());
const olga = api.as("olga");
const s = { project: "", meeting: "", series: "", task: "" };
const P = () => `/projects/${s.project}`;

beforeAll(async () => {
  s.project = (await api.create("/projects", { name: "Harbour Festival", timeZone: "Europe/Berlin", members: [{ userId: "olga", role: "member" }] })).id;
  s.meeting = (await olga.create(`${P()}/meetings`, { title: "Load-in; stage, lights", startsAt: "2026-06-01T10:00:00+02:00", endsAt: "2026-06-01T11:00:00+02:00", location: "Pier 4" })).id;
  s.series = (await olga.create(`${P()}/meetings`, { title: "Weekly stand-up", startsAt: "2026-06-01T07:00:00Z", endsAt: "2026-06-01T07:30:00Z", recurrence: "FREQ=WEEKLY;COUNT=6" })).id;
  s.task = (await olga.create(`${P()}/work`, { title: "Order barriers", dueAt: "2026-05-20T16:00:00Z", description: "Ask the city first.\nThen the rental firm." })).id;
  await olga.create(`${P()}/work`, { title: "No due date" });
});

async function fetchIcs(client = olga) {
  const res = await client.get(`${P()}/calendar.ics`);
  expect(res.status, String(res.body)).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/calendar");
  return String(res.body);
}

function parse(text: string) {
  // Every line ends in CRLF and is at most 75 octets (RFC 5545 §3.1).
  expect(text.endsWith("\r\n")).toBe(true);
  expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
  for (const line of text.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
  return new ICAL.Component(ICAL.parse(text));
}

/** A property value as the test reads it (ical.js types values as a union). */
const prop = (c: ICAL.Component, name: string) => c.getFirstPropertyValue(name) as any;
const eventsOf = (cal: ICAL.Component, uidStart: string) => cal.getAllSubcomponents("vevent").filter((e) => String(prop(e, "uid")).startsWith(uidStart));

test("meetings as VEVENT and due work as VTODO, parsed by ical.js", async () => {
  const cal = parse(await fetchIcs());
  const [meeting] = eventsOf(cal, s.meeting);
  expect(prop(meeting!, "summary")).toBe("Load-in; stage, lights");
  expect(prop(meeting!, "location")).toBe("Pier 4");
  expect(prop(meeting!, "sequence")).toBe(0);
  expect(prop(meeting!, "status")).toBe("CONFIRMED");
  expect(String(prop(meeting!, "url"))).toContain(`/api/planning/projects/${s.project}/meetings/${s.meeting}?partnerId=acme`);
  const start = prop(meeting!, "dtstart") as ICAL.Time;
  expect(start.zone?.tzid).toBe("UTC");
  expect(start.toJSDate().toISOString()).toBe("2026-06-01T08:00:00.000Z");

  const todos = cal.getAllSubcomponents("vtodo");
  expect(todos).toHaveLength(1); // work without a due time is not in the feed
  expect(prop(todos[0]!, "uid")).toStartWith(s.task);
  expect(prop(todos[0]!, "summary")).toBe("Order barriers");
  expect(prop(todos[0]!, "description")).toBe("Ask the city first.\nThen the rental firm.");
  expect((prop(todos[0]!, "due") as ICAL.Time).toJSDate().toISOString()).toBe("2026-05-20T16:00:00.000Z");
  expect(prop(todos[0]!, "status")).toBe("NEEDS-ACTION");
});

test("a changed meeting keeps its UID with a higher SEQUENCE; a cancelled one stays, CANCELLED and higher still", async () => {
  const uid = prop(eventsOf(parse(await fetchIcs()), s.meeting)[0]!, "uid");
  const long = "Load-in with the Ünïcødé crew, riggers; sound, lights and the stage manager — all hands on deck";
  await olga.patch(`${P()}/meetings/${s.meeting}`, { expectedVersion: 1, title: long, startsAt: "2026-06-01T09:00:00Z", endsAt: "2026-06-01T10:00:00Z" });
  let ev = eventsOf(parse(await fetchIcs()), s.meeting)[0]!;
  expect(prop(ev, "uid")).toBe(uid);
  expect(prop(ev, "sequence")).toBe(1);
  expect(prop(ev, "summary")).toBe(long);

  await olga.patch(`${P()}/meetings/${s.meeting}`, { expectedVersion: 2, state: "cancelled" });
  ev = eventsOf(parse(await fetchIcs()), s.meeting)[0]!;
  expect(prop(ev, "uid")).toBe(uid);
  expect(prop(ev, "status")).toBe("CANCELLED");
  expect(prop(ev, "sequence")).toBe(2);

  await olga.patch(`${P()}/work/${s.task}`, { expectedVersion: 1, state: "done" });
  const todo = parse(await fetchIcs()).getFirstSubcomponent("vtodo")!;
  expect(prop(todo, "status")).toBe("COMPLETED");
  expect(prop(todo, "sequence")).toBe(1);
});

test("a weekly series: one VEVENT with RRULE and EXDATE, a moved occurrence with RECURRENCE-ID", async () => {
  const occ = `${P()}/meetings/${s.series}/occurrences`;
  expectFieldError(await olga.post(occ, { occurrenceAt: "2026-06-09T07:00:00Z", cancelled: true }), "/body/occurrenceAt"); // a Tuesday
  expectFieldError(await olga.post(occ, { occurrenceAt: "2026-07-13T07:00:00Z", cancelled: true }), "/body/occurrenceAt"); // past COUNT=6
  expectProblem(await olga.post(`${P()}/meetings/${s.meeting}/occurrences`, { occurrenceAt: "2026-06-01T09:00:00Z", cancelled: true }), 409, "state_conflict");

  const before = prop(eventsOf(parse(await fetchIcs()), s.series)[0]!, "sequence");
  expect((await olga.post(occ, { occurrenceAt: "2026-06-08T07:00:00Z", cancelled: true })).status).toBe(200);
  const moved = await olga.post(occ, { occurrenceAt: "2026-06-15T07:00:00Z", startsAt: "2026-06-16T09:00:00Z", endsAt: "2026-06-16T09:45:00Z" });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  expect(moved.body).toMatchObject({ cancelled: false, startsAt: "2026-06-16T09:00:00.000Z", title: "Weekly stand-up", version: 1 });

  const cal = parse(await fetchIcs());
  const events = eventsOf(cal, s.series);
  expect(events).toHaveLength(2);
  const master = events.find((e) => !e.hasProperty("recurrence-id"))!;
  const exception = events.find((e) => e.hasProperty("recurrence-id"))!;
  expect(prop(master, "sequence")).toBeGreaterThan(before);
  expect(String(prop(master, "rrule"))).toBe("FREQ=WEEKLY;COUNT=6");
  expect((prop(master, "exdate") as ICAL.Time).toJSDate().toISOString()).toBe("2026-06-08T07:00:00.000Z");
  expect((prop(exception, "recurrence-id") as ICAL.Time).toJSDate().toISOString()).toBe("2026-06-15T07:00:00.000Z");
  expect(prop(exception, "uid")).toBe(prop(master, "uid"));

  // ical.js expands the series as a calendar app would: six weeks, less the cancelled one, one moved.
  const event = new ICAL.Event(master, { strictExceptions: true });
  event.relateException(exception);
  const it = event.iterator();
  const starts: string[] = [];
  for (let next = it.next(); next; next = it.next()) {
    if (master.getAllProperties("exdate").some((p) => (p.getFirstValue() as ICAL.Time).compare(next!) === 0)) continue;
    starts.push(event.getOccurrenceDetails(next).startDate.toJSDate().toISOString());
  }
  expect(starts).toEqual(["2026-06-01T07:00:00.000Z", "2026-06-16T09:00:00.000Z", "2026-06-22T07:00:00.000Z", "2026-06-29T07:00:00.000Z", "2026-07-06T07:00:00.000Z"]);
});

test("a private subscription URL works without headers, is replaced when reissued, and dies when revoked", async () => {
  const feed = await olga.post(`${P()}/calendar-feed`, {});
  expect(feed.status, JSON.stringify(feed.body)).toBe(201);
  const path = new URL(feed.body.url).pathname + new URL(feed.body.url).search;
  const viaFeed = await api.env.call("GET", path, { token: null });
  expect(viaFeed.status).toBe(200);
  expect(String(viaFeed.body)).toBe(await fetchIcs());
  // Only a digest is kept.
  const token = path.split("/")[4]!;
  const stored = JSON.stringify(await api.read((q) => q.all("select * from planning_calendar_feeds" as never)));
  expect(stored).not.toContain(token);

  const again = await olga.post(`${P()}/calendar-feed`, {});
  expectProblem(await api.env.call("GET", path, { token: null }), 404, "not_found");
  const path2 = new URL(again.body.url).pathname + new URL(again.body.url).search;
  expect((await api.env.call("GET", path2, { token: null })).status).toBe(200);
  expect((await olga.delete(`${P()}/calendar-feed`)).status).toBe(204);
  expectProblem(await api.env.call("GET", path2, { token: null }), 404, "not_found");
  expectProblem(await olga.delete(`${P()}/calendar-feed`), 404, "not_found");
});

test("out of scope: another project's member 404, another partner 403", async () => {
  expectProblem(await api.as("eve").get(`${P()}/calendar.ics`), 404, "not_found");
  const other = await partnerKit({ env: api.env, partnerId: "rival", family: "planning", users: { rita: "owner" } });
  expectProblem(await api.as("rita").get(`${P()}/calendar.ics`), 403, "partner_access_denied");
  other.close();
});

test("feed and record URLs are built on PUBLIC_BASE_URL, never on the request's Host header", async () => {
  const kit = await partnerKit({ family: "planning", envVars: { PUBLIC_BASE_URL: "https://plan.example.com/" }, users: { ada: "admin" } });
  try {
    const project = (await kit.create("/projects", { name: "Dock party", timeZone: "UTC" })).id;
    const meeting = (await kit.create(`/projects/${project}/meetings`, { title: "Walk-through", startsAt: "2026-06-01T07:00:00Z", endsAt: "2026-06-01T08:00:00Z" })).id;
    // A client (or a proxy passing it on) that names another host.
    const forged = async (method: string, path: string) => {
      const res = await kit.env.app.fetch(
        new Request(`http://attacker.example${kit.url(path)}`, {
          method,
          headers: { host: "attacker.example", "x-forwarded-host": "attacker.example", authorization: `Bearer ${await kit.env.token("ada")}`, "idempotency-key": crypto.randomUUID() },
        }),
      );
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    const issued = await forged("POST", `/projects/${project}/calendar-feed`);
    expect(issued.status, issued.text).toBe(201);
    const url = JSON.parse(issued.text).url as string;
    expect(url).toStartWith("https://plan.example.com/api/planning/calendar-feeds/");
    expect(url).toEndWith("/calendar.ics?partnerId=acme");
    expect(issued.headers.get("location")).toBe(url);

    const ics = await forged("GET", `/projects/${project}/calendar.ics`);
    expect(ics.status).toBe(200);
    expect(ics.text).not.toContain("attacker.example");
    const [event] = eventsOf(parse(ics.text), meeting);
    expect(String(prop(event!, "url"))).toBe(`https://plan.example.com/api/planning/projects/${project}/meetings/${meeting}?partnerId=acme`);

    // The feed itself, fetched with a forged Host, links to the configured base too.
    const u = new URL(url);
    const viaFeed = await kit.env.app.fetch(new Request(`http://attacker.example${u.pathname}${u.search}`, { headers: { host: "attacker.example" } }));
    const feedText = await viaFeed.text();
    expect(viaFeed.status).toBe(200);
    expect(feedText).not.toContain("attacker.example");
    expect(feedText.replaceAll("\r\n ", "")).toContain(`URL;VALUE=URI:https://plan.example.com/api/planning/projects/${project}/meetings/${meeting}`);
  } finally {
    kit.close();
  }
});

test("in production without PUBLIC_BASE_URL no feed URL is issued (409 public_base_url_not_configured) and the export has no URL lines", async () => {
  const kit = await partnerKit({ family: "planning", envVars: { NODE_ENV: "production" }, users: { ada: "admin" } });
  try {
    const project = (await kit.create("/projects", { name: "Dock party", timeZone: "UTC" })).id;
    await kit.create(`/projects/${project}/meetings`, { title: "Walk-through", startsAt: "2026-06-01T07:00:00Z", endsAt: "2026-06-01T08:00:00Z" });
    const res = await kit.post(`/projects/${project}/calendar-feed`, {});
    expectProblem(res, 409, "public_base_url_not_configured");
    expect(res.body.detail).toContain("PUBLIC_BASE_URL");
    expect(await kit.read((q) => q.all("select id from planning_calendar_feeds" as never))).toEqual([]);
    const ics = await kit.get(`/projects/${project}/calendar.ics`);
    expect(ics.status).toBe(200);
    expect(String(ics.body)).not.toContain("URL");
    expect(String(ics.body)).not.toContain("test.local");
    expect(parse(String(ics.body)).getAllSubcomponents("vevent")).toHaveLength(1);
  } finally {
    kit.close();
  }
});

test("PUBLIC_BASE_URL is checked at start: an absolute http(s) URL, https in production, no query; its trailing slash dropped", async () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-base-url-"));
  try {
    const base = { TENANTS_DIR: dir, DASHBOARD_JWT_SECRET: "x".repeat(40), DATA_KEK: Buffer.alloc(32, 7).toString("base64"), LOG_LEVEL: "silent" };
    expect(loadConfig({ ...base, PUBLIC_BASE_URL: "https://plan.example.com/planner/" }).publicBaseUrl).toBe("https://plan.example.com/planner");
    expect(loadConfig({ ...base, PORT: "8080" }).publicBaseUrl).toBe("http://localhost:8080");
    expect(loadConfig({ ...base, NODE_ENV: "production" }).publicBaseUrl).toBeUndefined();
    for (const bad of ["plan.example.com", "ftp://plan.example.com", "https://plan.example.com/?x=1", "https://user:pw@plan.example.com"]) {
      expect(() => loadConfig({ ...base, PUBLIC_BASE_URL: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ ...base, NODE_ENV: "production", PUBLIC_BASE_URL: "http://plan.example.com" })).toThrow("https in production");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
