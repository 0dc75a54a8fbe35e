// Dock appointments: a truck's slot from scheduling to completion, and every move
// the table refuses as 409 naming the appointment's current state.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { DOCK_APPOINTMENT_STATES } from "./dock.tables.ts";
import { mayMoveAppointment } from "../hub.states.ts";

const clock = new MutableClock(new Date("2026-06-06T06:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-dock", users: { ada: "admin", otto: "operator", vic: "viewer" }, tickMs: 1000 });
afterAll(() => api.close());

let dock = "";
beforeAll(async () => {
  dock = (await api.seed.location({ name: "Door 4", kind: "room" })).id;
});
const inHours = (h: number) => new Date(clock.current.getTime() + h * 3_600_000).toISOString();
const appointment = (b: Record<string, unknown> = {}) =>
  api.create("/hub/dock-appointments", { locationId: dock, carrier: "Fast Freight", kind: "inbound", scheduledAt: inHours(2), ...b });
const move = (id: string, to: string, body: Record<string, unknown> = {}) => api.as("otto").post(`/hub/dock-appointments/${id}/transition`, { to, ...body });

describe("a dock appointment", () => {
  test("an inbound truck: scheduled → arrived → unloading → completed, each step stamped and in the history", async () => {
    const shipmentId = Bun.randomUUIDv7();
    const res = await api.post("/hub/dock-appointments", {
      locationId: dock,
      carrier: "Fast Freight",
      kind: "inbound",
      scheduledAt: "2026-06-06T10:00:00+02:00",
      shipmentId,
      reference: "TRL-889",
      note: "Two pallets",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const a = res.body;
    expect(res.headers.get("location")).toBe(`/api/assets/hub/records/${a.id}?partnerId=hub-dock`);
    expect(a).toMatchObject({ status: "scheduled", scheduledAt: "2026-06-06T08:00:00.000Z", shipmentId, reference: "TRL-889", arrivedAt: null, version: 1 });

    expect((await move(a.id, "arrived", { reason: "early" })).body).toMatchObject({ status: "arrived", arrivedAt: clock.current.toISOString(), version: 2 });
    expect((await move(a.id, "unloading")).body).toMatchObject({ status: "unloading", startedAt: clock.current.toISOString() });
    const done = await move(a.id, "completed", { expectedVersion: 3 });
    expect(done.body).toMatchObject({ status: "completed", closedAt: clock.current.toISOString(), version: 4 });

    const detail = await api.as("vic").get(`/hub/records/${a.id}`);
    expect(detail.body).toMatchObject({ recordType: "appointment", kind: "inbound", title: "Fast Freight", status: "completed", at: a.scheduledAt, locationId: dock, detail: done.body });
    expect(detail.body.events.map((e: { kind: string; actorId: string }) => `${e.kind}:${e.actorId}`)).toEqual([
      "completed:otto",
      "unloading:otto",
      "arrived:otto",
      "scheduled:ada",
    ]);
    expect(detail.body.events[2]).toMatchObject({ reason: "early", data: { fromState: "scheduled", toState: "arrived" } });
  });

  test("every move the table does not list is 409 state_conflict naming the current state", async () => {
    // Walk each state, then try every target from it.
    const reach: Record<string, string[]> = {
      scheduled: [],
      arrived: ["arrived"],
      unloading: ["arrived", "unloading"],
      completed: ["arrived", "unloading", "completed"],
      cancelled: ["cancelled"],
    };
    for (const [state, path] of Object.entries(reach)) {
      for (const to of DOCK_APPOINTMENT_STATES.filter((s) => s !== "scheduled")) {
        if (mayMoveAppointment(state as never, to) && to !== "loading" && to !== "no_show") continue;
        const a = await appointment();
        for (const step of path) expect((await move(a.id, step)).status).toBe(200);
        const res = await move(a.id, to);
        if (to === "no_show" && state === "scheduled") {
          // Allowed by the table, but not before the slot.
          expectProblem(res, 409, "state_conflict", `${state} → ${to}`);
          expect(res.body.detail).toContain("before then");
          continue;
        }
        if (to === "loading" && state === "arrived") {
          expectProblem(res, 409, "state_conflict", `${state} → ${to}`);
          expect(res.body.detail).toContain("inbound");
          continue;
        }
        expectProblem(res, 409, "state_conflict", `${state} → ${to}`);
        expect(res.body.detail, `${state} → ${to}`).toContain(`that is ${state} cannot become ${to}`);
        expect(res.body.currentState).toBe(state);
      }
    }
  });

  test("an outbound truck loads; a missed slot becomes a no-show once its time has passed", async () => {
    const out = await appointment({ kind: "outbound" });
    await move(out.id, "arrived");
    expectProblem(await move(out.id, "unloading"), 409, "state_conflict");
    expect((await move(out.id, "loading")).body.status).toBe("loading");

    const missed = await appointment({ scheduledAt: inHours(1) });
    clock.advance(2 * 3_600_000);
    expect((await move(missed.id, "no_show", { reason: "never came" })).body).toMatchObject({ status: "no_show", closedAt: clock.current.toISOString() });
    expectProblem(await move(missed.id, "arrived"), 409, "state_conflict");
  });

  test("validation: the dock must exist, the slot may not be in the past, a stale version is 409", async () => {
    expectFieldError(await api.post("/hub/dock-appointments", { locationId: Bun.randomUUIDv7(), carrier: "X", kind: "inbound", scheduledAt: inHours(1) }), "/body/locationId");
    expectFieldError(await api.post("/hub/dock-appointments", { locationId: dock, carrier: "X", kind: "inbound", scheduledAt: inHours(-1) }), "/body/scheduledAt");
    expectFieldError(await api.post("/hub/dock-appointments", { locationId: dock, carrier: "X", kind: "sideways", scheduledAt: inHours(1) }), "/body/kind");
    expectFieldError(await api.post("/hub/dock-appointments", { locationId: dock, carrier: "X", kind: "inbound", scheduledAt: inHours(1), shipmentId: "SH-1" }), "/body/shipmentId");
    // A walk-in a minute ago is fine.
    expect((await api.post("/hub/dock-appointments", { locationId: dock, carrier: "Walk-in", kind: "inbound", scheduledAt: inHours(-1 / 60) })).status).toBe(201);
    const a = await appointment();
    expectProblem(await move(a.id, "arrived", { expectedVersion: 2 }), 409, "version_conflict");
    expectFieldError(await move(a.id, "scheduled"), "/body/to");
    expectProblem(await move(Bun.randomUUIDv7(), "arrived"), 404, "not_found");
    expectProblem(await api.as("vic").post(`/hub/dock-appointments/${a.id}/transition`, { to: "arrived" }), 403, "capability_denied");
  });
});
