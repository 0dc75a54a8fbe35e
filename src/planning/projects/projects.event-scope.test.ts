// A canonical event is reached only through projects the caller may see (in the style
// of test/hardening/isolation.test.ts). Otto's "Hidden gala" is linked to its event;
// Olga, an editor who is no member there, names that event to link her own project:
// she is answered exactly as for an id that does not exist (400 at /body/eventId, the
// same problem shape), her project stays unlinked, and she cannot read the event's
// catalog through it. Once she sees a project linked to the event, or for an event no
// project has linked yet (partner-level until linked), the link works; planning_admin
// sees every project and so every event.
import { afterAll, describe, expect, test } from "bun:test";
import { MutableClock, type CallResult } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
// pia: admin (planning_admin, planning_apply); olga and otto: operators (planning_edit), each in their own projects.
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", olga: "operator", otto: "operator" } });
afterAll(() => api.close());
const olga = api.as("olga");
const otto = api.as("otto");

/** The problem's shape with the named ids masked: status, code, keys, detail and error paths. */
function shape(res: CallResult, ids: string[]): string {
  const b = (res.body ?? {}) as Record<string, unknown>;
  let detail = String(b.detail ?? "");
  for (const id of ids) detail = detail.replaceAll(id, "<id>");
  const errors = Array.isArray(b.errors) ? (b.errors as Array<{ path: string; message: string }>).map((e) => `${e.path} ${e.message.replaceAll(ids[0]!, "<id>")}`) : [];
  return JSON.stringify({ status: res.status, code: b.code, keys: Object.keys(b).sort(), detail, errors });
}

async function project(client: typeof olga, name: string, members: Array<{ userId: string; role: string }> = []): Promise<string> {
  const made = await client.post("/projects", { name, timeZone: "Europe/Berlin", members });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as string;
}

async function eventVia(projectId: string, name: string): Promise<string> {
  const made = await api.post(`/projects/${projectId}/canonical-command`, {
    command: "create_event",
    data: { name, startsAt: "2026-09-01T16:00:00Z", endsAt: "2026-09-01T23:00:00Z", timeZone: "Europe/Berlin" },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.id as string;
}

const ids = { hidden: "", hiddenEvent: "", mine: "" };

describe("a canonical event is reachable only through projects the caller sees", () => {
  test("another project's event is refused like a missing one; nothing is linked and its catalog stays out of reach", async () => {
    ids.hidden = await project(otto, "Hidden gala");
    ids.hiddenEvent = await eventVia(ids.hidden, "Hidden gala night");
    expect((await otto.post(`/projects/${ids.hidden}/link-event`, { eventId: ids.hiddenEvent })).status).toBe(200);
    ids.mine = await project(olga, "Olga's fair");
    // Olga does not see the hidden project.
    expectProblem(await olga.get(`/projects/${ids.hidden}`), 404, "not_found");

    const missing = Bun.randomUUIDv7();
    const refused = await olga.post(`/projects/${ids.mine}/link-event`, { eventId: ids.hiddenEvent });
    const absent = await olga.post(`/projects/${ids.mine}/link-event`, { eventId: missing });
    expectFieldError(absent, "/body/eventId", "missing event");
    expectFieldError(refused, "/body/eventId", "the hidden project's event");
    expect(shape(refused, [ids.hiddenEvent])).toBe(shape(absent, [missing]));
    expect(JSON.stringify(refused.body)).not.toContain("Hidden gala");

    // Nothing changed: her project is unlinked, so no catalog can be read through it.
    const mine = await olga.get(`/projects/${ids.mine}`);
    expect(mine.body).toMatchObject({ eventId: null, version: 1 });
    const catalog = await olga.get(`/projects/${ids.mine}/event-catalog`);
    expect(catalog.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(catalog.body)).not.toContain("Hidden gala");
  });

  test("an event no project has linked yet is partner-level: an editor links it", async () => {
    const standalone = await eventVia(ids.hidden, "Open air");
    const other = await project(olga, "Olga's open air");
    const linked = await olga.post(`/projects/${other}/link-event`, { eventId: standalone });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.eventId).toBe(standalone);
    const catalog = await olga.get(`/projects/${other}/event-catalog`);
    expect(catalog.status).toBe(200);
    expect(catalog.body.event).toMatchObject({ id: standalone, name: "Open air" });
  });

  test("once she sees a project linked to the event, or as planning_admin, the link works", async () => {
    // Otto shares the event with Olga through a second project she is a member of.
    const shared = await project(otto, "Shared crew", [{ userId: "olga", role: "member" }]);
    expect((await otto.post(`/projects/${shared}/link-event`, { eventId: ids.hiddenEvent })).status).toBe(200);
    const linked = await olga.post(`/projects/${ids.mine}/link-event`, { eventId: ids.hiddenEvent, expectedVersion: 1 });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.eventId).toBe(ids.hiddenEvent);

    // planning_admin sees every project, so every event.
    const adminProject = await project(api, "Admin's copy");
    expect((await api.post(`/projects/${adminProject}/link-event`, { eventId: ids.hiddenEvent })).status).toBe(200);
  });
});
