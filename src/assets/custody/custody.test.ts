// Custody told as a story: an item is reserved for next week, lent out now and
// brought back before that, then the reservation is started, acknowledged,
// extended, handed on and returned in a worse condition, with the failures
// along the way. Master data and items are seeded through the kit's factories
// (the API's own handlers) by another member, before the story's clock starts.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, asc, eq, gte } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError as expectField, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { items, movements } from "../kernel/kernel.tables.ts";
import { routes } from "./routes.ts";
import { startReservationWindows } from "./custody.service.ts";
import { systemContext } from "../../platform/tenancy/tenant-context.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date("2026-03-02T09:00:00.000Z");
// Seeding happens a minute before T0, so the story's own movements are those recorded from T0 on.
const clock = new MutableClock(new Date(T0.getTime() - 60_000));
const api = await partnerKit({ clock, users: { "op-1": "operator", alice: "viewer", bob: "viewer" } });
const env = api.env;
const P = api.partnerId;
afterAll(() => api.close());

const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

const ids = { warehouse: "", desk: "", rentals: "", archivedParty: "", item: "", other: "", planned: "", box: "", inBox: "" };

const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
/** The item's movements recorded from T0 on (the story's, not the seeding's). */
const movementsOf = (itemId: string) =>
  api.read((q) =>
    q
      .select()
      .from(movements)
      .where(and(eq(movements.itemId, itemId), gte(movements.recordedAt, T0.toISOString())))
      .orderBy(asc(movements.recordedAt), asc(movements.id)),
  );

beforeAll(async () => {
  // Seeded as an admin would create them, through the API's own handlers.
  await env.member(P, "seeder", "admin");
  const as = { as: "seeder" };
  ids.warehouse = (await api.seed.call("post", "/locations", { name: "Warehouse", kind: "site" }, as)).id;
  ids.desk = (await api.seed.call("post", "/locations", { name: "Front desk", kind: "room", parentId: ids.warehouse }, as)).id;
  ids.rentals = (await api.seed.call("post", "/parties", { name: "Stage Rentals Ltd", kind: "organisation" }, as)).id;
  const gone = await api.seed.call("post", "/parties", { name: "Gone Ltd", kind: "organisation" }, as);
  await api.seed.call("patch", `/parties/${gone.id}`, { expectedVersion: gone.version, status: "archived" }, as);
  ids.archivedParty = gone.id;
  const active = async (name: string) => {
    const item = await api.seed.call("post", "/assets", { name, ownership: "owned", locationId: ids.warehouse }, as);
    await api.seed.call("post", `/items/${item.id}/activate`, {}, as);
    return item.id as string;
  };
  ids.item = await active("Projector");
  ids.other = await active("Tripod");
  ids.planned = (await api.seed.call("post", "/assets", { name: "New laptop", ownership: "owned", locationId: ids.warehouse }, as)).id;
  ids.box = await active("Cable case");
  ids.inBox = await active("HDMI cable");
  await api.seed.call("post", `/items/${ids.inBox}/move`, { toContainerId: ids.box }, as);
  clock.current = new Date(T0);
});

describe("a projector's week", () => {
  const state = { aliceRes: "", rentalsRes: "", direct: "" };

  test("reserved for next week; an overlapping reservation is 409, an adjacent one fits", async () => {
    const r = await api.post("/reservations", {
      itemId: ids.item,
      holder: { kind: "user", id: "alice" },
      startsAt: at(7 * DAY),
      endsAt: at(9 * DAY),
      note: "conference",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ state: "reserved", holder: { kind: "user", id: "alice" }, startsAt: at(7 * DAY), endsAt: at(9 * DAY), dueAt: null, version: 1, overdue: false, createdBy: "op-1" });
    expect(r.headers.get("location")).toBe(`/api/assets/checkouts/${r.body.id}?partnerId=${P}`);
    state.aliceRes = r.body.id;
    // Availability describes now: reserved next week, available today; the item's
    // detail shows the reservation as upcoming.
    expect((await itemRow(ids.item)).availability).toBe("available");
    const detail = await api.get(`/items/${ids.item}`);
    expect(detail.body.availability).toBe("available");
    expect(JSON.stringify(detail.body.custody)).toContain(state.aliceRes);

    const clash = await api.post("/reservations", {
      itemId: ids.item,
      holder: { kind: "party", id: ids.rentals },
      startsAt: at(8 * DAY),
      endsAt: at(10 * DAY),
    });
    expectProblem(clash, 409, "state_conflict");
    expect(clash.body.detail).toContain(state.aliceRes);

    // Windows are half-open: one may start exactly when the other ends.
    const next = await api.post("/reservations", {
      itemId: ids.item,
      holder: { kind: "party", id: ids.rentals },
      startsAt: at(9 * DAY),
      endsAt: at(12 * DAY),
    });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    state.rentalsRes = next.body.id;
  });

  test("reservation input is checked", async () => {
    const base = { itemId: ids.item, holder: { kind: "user", id: "alice" } };
    expectField(await api.post("/reservations", { ...base, startsAt: at(3 * DAY), endsAt: at(2 * DAY) }), "/body/endsAt");
    expectField(await api.post("/reservations", { ...base, startsAt: at(-3 * DAY), endsAt: at(-2 * DAY) }), "/body/startsAt");
    // A window already begun (beyond the clock-skew grace) is not a reservation.
    expectField(await api.post("/reservations", { ...base, startsAt: at(-3_600_000), endsAt: at(2 * DAY) }), "/body/startsAt");
    expectField(await api.post("/reservations", { ...base, startsAt: "next week", endsAt: at(2 * DAY) }), "/body/startsAt");
    expectField(await api.post("/reservations", { ...base, itemId: env.deps.newId(), startsAt: at(DAY), endsAt: at(2 * DAY) }), "/body/itemId");
    expectField(
      await api.post("/reservations", { ...base, holder: { kind: "party", id: ids.archivedParty }, startsAt: at(DAY), endsAt: at(2 * DAY) }),
      "/body/holder/id",
    );
  });

  test("checked out now: a due time running into next week's reservation is 409, before it is fine", async () => {
    const body = { itemId: ids.item, holder: { kind: "party", id: ids.rentals }, note: "rehearsal" };
    const late = await api.post("/checkouts", { ...body, dueAt: at(7 * DAY + HOUR) });
    expectProblem(late, 409, "state_conflict");
    expect(late.body.detail).toContain(state.aliceRes);

    const res = await api.post("/checkouts", { ...body, dueAt: at(3 * DAY) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      state: "checked_out",
      holder: { kind: "party", id: ids.rentals },
      dueAt: at(3 * DAY),
      checkedOutAt: at(0),
      startsAt: at(0),
      endsAt: null,
      note: "rehearsal",
      overdue: false,
    });
    expect(res.headers.get("location")).toBe(`/api/assets/checkouts/${res.body.id}?partnerId=${P}`);
    state.direct = res.body.id;
    const item = await itemRow(ids.item);
    expect(item.availability).toBe("checked_out");
    expect(item.version).toBe(3); // seeded at 2 (registered, activated); checked_out +1; next week's reservation changed nothing yet

    const again = await api.post("/checkouts", { ...body, dueAt: at(2 * DAY) });
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain(state.direct);
    // Reserving across the running checkout is refused too.
    expectProblem(
      await api.post("/reservations", { itemId: ids.item, holder: { kind: "user", id: "bob" }, startsAt: at(2 * DAY), endsAt: at(4 * DAY) }),
      409,
      "state_conflict",
    );

    const moves = await movementsOf(ids.item);
    expect(moves.map((m) => m.kind)).toEqual(["reserved", "reserved", "checked_out"]);
    // Reservations are steps of the story too, observed where the item is; they move nothing.
    expect(moves[0]).toMatchObject({
      actorId: "op-1",
      holderKind: "user",
      holderId: "alice",
      checkoutId: state.aliceRes,
      bizLocationId: ids.warehouse,
      readPointId: ids.warehouse,
      toLocationId: null,
      data: { startsAt: at(7 * DAY), endsAt: at(9 * DAY) },
    });
    expect(moves[1]).toMatchObject({ kind: "reserved", holderKind: "party", holderId: ids.rentals, checkoutId: state.rentalsRes });
    expect(moves[2]).toMatchObject({ actorId: "op-1", holderKind: "party", holderId: ids.rentals, bizLocationId: ids.warehouse, checkoutId: state.direct });
  });

  test("checkout input and item state are checked", async () => {
    const holder = { kind: "user", id: "bob" };
    expectField(await api.post("/checkouts", { itemId: ids.other, holder, dueAt: at(-HOUR) }), "/body/dueAt");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder, dueAt: at(0) }), "/body/dueAt");
    expectField(await api.post("/checkouts", { itemId: env.deps.newId(), holder, dueAt: at(DAY) }), "/body/itemId");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder: { kind: "user", id: "nobody" }, dueAt: at(DAY) }), "/body/holder/id");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder: { kind: "location", id: env.deps.newId() }, dueAt: at(DAY) }), "/body/holder/id");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder: { kind: "robot", id: "r2" }, dueAt: at(DAY) }), "/body/holder/kind");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder, dueAt: at(DAY), expectedVersion: 1 }), "/body/expectedVersion");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder, dueAt: at(DAY), reservationId: env.deps.newId() }), "/body/reservationId");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder, dueAt: at(DAY), reservationId: state.aliceRes }), "/body/reservationId");
    expectField(await api.post("/checkouts", { itemId: ids.other, holder, dueAt: at(DAY), createdBy: "someone" }), "/body/createdBy");
    const planned = await api.post("/checkouts", { itemId: ids.planned, holder, dueAt: at(DAY) });
    expectProblem(planned, 409, "state_conflict");
    expect(planned.body.detail).toContain("planned");
    expect((await movementsOf(ids.other)).length).toBe(0);
  });

  test("a party holding it cannot acknowledge, nor can anyone else", async () => {
    expectProblem(await api.as("alice").post(`/checkouts/${state.direct}/acknowledge`, {}), 403, "not_holder");
    expectProblem(await api.post(`/checkouts/${state.direct}/acknowledge`, {}), 403, "not_holder");
    expectProblem(await api.as("alice").post(`/checkouts/${env.deps.newId()}/acknowledge`, {}), 404, "not_found");
  });

  test("overdue is derived from the clock", async () => {
    clock.advance(3 * DAY + HOUR);
    const overdue = await api.get("/checkouts?overdue=true");
    expect(overdue.status, JSON.stringify(overdue.body)).toBe(200);
    expect(overdue.body.total).toBe(1);
    expect(overdue.body.filters).toEqual({ overdue: true });
    expect(overdue.body.items[0]).toMatchObject({ id: state.direct, overdue: true });
    const notOverdue = await api.get("/checkouts?overdue=false");
    expect(notOverdue.body.total).toBe(2);
    expect(notOverdue.body.items.every((c: { overdue: boolean }) => !c.overdue)).toBe(true);
    const detail = await api.get(`/checkouts/${state.direct}`);
    expect(detail.body.overdue).toBe(true);
  });

  test("returned before next week: the item is available until the reservation starts", async () => {
    const res = await api.post(`/checkouts/${state.direct}/return`, { note: "all fine" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: "returned", returnedAt: at(3 * DAY + HOUR), returnCondition: null, returnLocationId: ids.warehouse, overdue: false, version: 2 });
    const item = await itemRow(ids.item);
    expect(item).toMatchObject({ availability: "available", condition: "good", locationId: ids.warehouse });
    expectProblem(await api.post(`/checkouts/${state.direct}/return`, {}), 409, "state_conflict");
    expect((await api.get("/checkouts?overdue=true")).body.total).toBe(0);
  });

  test("the reservation is started next week by its holder only", async () => {
    clock.advance(4 * DAY); // T+7d+1h
    // The window has started: the reservations job makes the item reserved.
    const h = await env.deps.tenancy.acquire(P);
    try {
      expect(await startReservationWindows(systemContext(env.deps, h, P, "test-run", clock.now()))).toBe(1);
    } finally {
      env.deps.tenancy.release(h);
    }
    expect((await itemRow(ids.item)).availability).toBe("reserved");
    const body = { itemId: ids.item, reservationId: state.aliceRes, dueAt: at(8 * DAY) };
    expectProblem(await api.post("/checkouts", { ...body, holder: { kind: "user", id: "bob" } }), 409, "state_conflict");
    expectProblem(await api.post("/checkouts", { ...body, holder: { kind: "user", id: "alice" }, expectedVersion: 7 }), 409, "version_conflict");
    // Running into the next reservation is refused for a started one too.
    expectProblem(await api.post("/checkouts", { ...body, holder: { kind: "user", id: "alice" }, dueAt: at(10 * DAY) }), 409, "state_conflict");

    const res = await api.post("/checkouts", { ...body, holder: { kind: "user", id: "alice" }, expectedVersion: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: state.aliceRes,
      state: "checked_out",
      startsAt: at(7 * DAY),
      endsAt: at(9 * DAY),
      checkedOutAt: at(7 * DAY + HOUR),
      dueAt: at(8 * DAY),
      note: "conference",
      version: 2,
      acknowledgedAt: null,
    });
    expect((await itemRow(ids.item)).availability).toBe("checked_out");
    expectProblem(await api.post("/checkouts", { ...body, holder: { kind: "user", id: "alice" } }), 409, "state_conflict");
    expectProblem(await api.post(`/reservations/${state.aliceRes}/cancel`, {}), 409, "state_conflict");
  });

  test("acknowledged by the holder, not by anyone else, and only once", async () => {
    clock.advance(60_000);
    expectProblem(await api.as("bob").post(`/checkouts/${state.aliceRes}/acknowledge`, {}), 403, "not_holder");
    const res = await api.as("alice").post(`/checkouts/${state.aliceRes}/acknowledge`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ acknowledgedBy: "alice", acknowledgedAt: clock.now().toISOString(), version: 3 });
    expectProblem(await api.as("alice").post(`/checkouts/${state.aliceRes}/acknowledge`, {}), 409, "state_conflict");
    expectProblem(await api.as("alice").post(`/checkouts/${state.aliceRes}/acknowledge`, { expectedVersion: 1 }), 409, "version_conflict");
  });

  test("extended with a reason, never into the next reservation", async () => {
    clock.advance(60_000);
    const path = `/checkouts/${state.aliceRes}/extend`;
    expectField(await api.post(path, { dueAt: at(8 * DAY + 12 * HOUR) }), "/body/reason");
    expectField(await api.post(path, { dueAt: at(8 * DAY + 12 * HOUR), reason: "   " }), "/body/reason");
    expectField(await api.post(path, { dueAt: at(DAY), reason: "oops" }), "/body/dueAt");
    const clash = await api.post(path, { dueAt: at(10 * DAY), reason: "talk moved" });
    expectProblem(clash, 409, "state_conflict");
    expect(clash.body.detail).toContain(state.rentalsRes);
    expectProblem(await api.post(path, { dueAt: at(8 * DAY + 12 * HOUR), reason: "talk moved", expectedVersion: 1 }), 409, "version_conflict");
    const res = await api.post(path, { dueAt: at(8 * DAY + 12 * HOUR), reason: "talk moved", expectedVersion: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ dueAt: at(8 * DAY + 12 * HOUR), version: 4 });
    expectProblem(await api.post(`/checkouts/${state.direct}/extend`, { dueAt: at(8 * DAY), reason: "x" }), 409, "state_conflict");
  });

  test("the rentals reservation is released", async () => {
    clock.advance(60_000);
    const res = await api.post(`/reservations/${state.rentalsRes}/cancel`, { reason: "they cancelled" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: "cancelled", version: 2 });
    expectProblem(await api.post(`/reservations/${state.rentalsRes}/cancel`, {}), 409, "state_conflict");
    expectProblem(await api.post(`/reservations/${env.deps.newId()}/cancel`, {}), 404, "not_found");
  });

  test("transferred to Bob: a movement, and the acknowledgement is reset", async () => {
    clock.advance(60_000);
    const path = `/checkouts/${state.aliceRes}/transfer`;
    expectProblem(await api.post(path, { holder: { kind: "user", id: "alice" } }), 409, "state_conflict");
    expectField(await api.post(path, { holder: { kind: "party", id: env.deps.newId() } }), "/body/holder/id");
    const res = await api.post(path, { holder: { kind: "user", id: "bob" }, reason: "Alice is ill" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ holder: { kind: "user", id: "bob" }, acknowledgedAt: null, acknowledgedBy: null, version: 5 });
    const moves = await movementsOf(ids.item);
    const t = moves.at(-1)!;
    expect(t).toMatchObject({ kind: "transferred", actorId: "op-1", holderKind: "user", holderId: "bob", checkoutId: state.aliceRes, reason: "Alice is ill" });
    expect(t.data).toEqual({ fromHolder: { kind: "user", id: "alice" } });
    expectProblem(await api.as("alice").post(`/checkouts/${state.aliceRes}/acknowledge`, {}), 403, "not_holder");
    clock.advance(60_000);
    expect((await api.as("bob").post(`/checkouts/${state.aliceRes}/acknowledge`, {})).status).toBe(200);
  });

  test("returned in a worse condition at the front desk", async () => {
    clock.advance(60_000);
    const path = `/checkouts/${state.aliceRes}/return`;
    expectField(await api.post(path, { locationId: env.deps.newId() }), "/body/locationId");
    expectField(await api.post(path, { condition: "shattered" }), "/body/condition");
    const before = await itemRow(ids.item);
    const res = await api.post(path, { condition: "poor", locationId: ids.desk, note: "lens scratched" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: "returned", returnCondition: "poor", returnLocationId: ids.desk, returnedAt: clock.now().toISOString(), version: 7 });
    const item = await itemRow(ids.item);
    expect(item).toMatchObject({ condition: "poor", locationId: ids.desk, availability: "available", version: before.version + 1, updatedAt: clock.now().toISOString() });

    const moves = await movementsOf(ids.item);
    expect(moves.map((m) => m.kind)).toEqual([
      "reserved",
      "reserved",
      "checked_out",
      "returned",
      "checked_out",
      "acknowledged",
      "extended",
      "reservation_cancelled",
      "transferred",
      "acknowledged",
      "returned",
    ]);
    // The actor is whoever's token made the step: the holders acknowledged, the operator did the rest.
    expect(moves.map((m) => m.actorId)).toEqual(["op-1", "op-1", "op-1", "op-1", "op-1", "alice", "op-1", "op-1", "op-1", "bob", "op-1"]);
    const [, , , , , ackAlice, extended, cancelled, , ackBob] = moves;
    expect(ackAlice).toMatchObject({ holderKind: "user", holderId: "alice", checkoutId: state.aliceRes, bizLocationId: ids.warehouse, toLocationId: null });
    expect(ackBob).toMatchObject({ holderKind: "user", holderId: "bob", checkoutId: state.aliceRes });
    expect(extended).toMatchObject({ reason: "talk moved", checkoutId: state.aliceRes, data: { fromDueAt: at(8 * DAY), toDueAt: at(8 * DAY + 12 * HOUR) } });
    expect(cancelled).toMatchObject({ reason: "they cancelled", holderKind: "party", holderId: ids.rentals, checkoutId: state.rentalsRes, bizLocationId: ids.warehouse });
    expect(moves.at(-1)).toMatchObject({
      fromLocationId: ids.warehouse,
      toLocationId: ids.desk,
      bizLocationId: ids.desk,
      holderKind: "user",
      holderId: "bob",
      reason: "lens scratched",
      data: { condition: "poor", fromCondition: "good" },
    });
  });

  test("the record tells its history, newest first", async () => {
    // Reads need only ams_view: a viewer holding the item can see it.
    const detail = await api.as("bob").get(`/checkouts/${state.aliceRes}`);
    expect(detail.status).toBe(200);
    expect(detail.body.events.map((e: { kind: string }) => e.kind)).toEqual([
      "returned",
      "acknowledged",
      "transferred",
      "extended",
      "acknowledged",
      "checked_out",
      "reserved",
    ]);
    const ext = detail.body.events[3];
    expect(ext).toMatchObject({ actorId: "op-1", reason: "talk moved", data: { fromDueAt: at(8 * DAY), toDueAt: at(8 * DAY + 12 * HOUR) } });
    expect(detail.body.events[1]).toMatchObject({ actorId: "bob" });
    expectProblem(await api.get(`/checkouts/${env.deps.newId()}`), 404, "not_found");
  });
});

describe("more custody rules", () => {
  test("a returned container brings its contents along", async () => {
    const cableBefore = await itemRow(ids.inBox);
    const out = await api.post("/checkouts", { itemId: ids.box, holder: { kind: "location", id: ids.desk }, dueAt: at(20 * DAY) });
    expect(out.status, JSON.stringify(out.body)).toBe(201);
    const back = await api.post(`/checkouts/${out.body.id}/return`, { locationId: ids.desk });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await itemRow(ids.box)).locationId).toBe(ids.desk);
    const cable = await itemRow(ids.inBox);
    expect(cable).toMatchObject({ locationId: ids.desk, containerId: ids.box, version: cableBefore.version + 1 });
    const moves = await movementsOf(ids.inBox);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ kind: "moved", fromLocationId: ids.warehouse, toLocationId: ids.desk, actorId: "op-1" });
  });

  test("an item on hold cannot leave", async () => {
    const held = await api.patch(`/items/${ids.other}`, { expectedVersion: (await itemRow(ids.other)).version, qualityStatus: "quarantined" });
    expect(held.body.availability).toBe("on_hold");
    expectProblem(await api.post("/checkouts", { itemId: ids.other, holder: { kind: "user", id: "bob" }, dueAt: at(20 * DAY) }), 409, "state_conflict");
    const released = await api.patch(`/items/${ids.other}`, { expectedVersion: held.body.version, qualityStatus: "released" });
    expect(released.body.availability).toBe("available");
  });

  test("filters and paging", async () => {
    const all = await api.get("/checkouts");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.filters).toEqual({});
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ id: string }>; nextCursor: string | null; total: number; limit: number } } = await api.get(`/checkouts?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.body.total).toBe(4);
      expect(page.body.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.body.items.map((c) => c.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((c: { id: string }) => c.id));

    const returned = await api.get("/checkouts?state=returned,cancelled");
    expect(returned.body.filters).toEqual({ state: ["returned", "cancelled"] });
    expect(returned.body.total).toBe(4);
    expect((await api.get("/checkouts?state=reserved")).body.total).toBe(0);
    expect((await api.get(`/checkouts?itemId=${ids.item}`)).body.total).toBe(3);
    const bob = await api.get("/checkouts?holderKind=user&holderId=bob");
    expect(bob.body.total).toBe(1);
    expect(bob.body.filters).toEqual({ holderKind: ["user"], holderId: "bob" });
    expect((await api.get(`/checkouts?holderId=${ids.rentals}`)).body.total).toBe(2);
    expect((await api.get("/checkouts?holderKind=location")).body.total).toBe(1);
    expectField(await api.get("/checkouts?state=lost"), "/query/state");
    expectField(await api.get("/checkouts?overdue=yes"), "/query/overdue");
    expectField(await api.get("/checkouts?limit=201"), "/query/limit");
    // A cursor is bound to its filters.
    const first = await api.get("/checkouts?limit=1");
    expectProblem(await api.get(`/checkouts?state=returned&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`), 400, "invalid_cursor");
  });

  test("every custody mutation needs an Idempotency-Key", async () => {
    const mutations = routes.filter((r) => r.method !== "get");
    expect(mutations.length).toBe(7);
    for (const r of mutations) {
      const res = await api.post(r.path.replace("{id}", env.deps.newId()), {}, { idem: false });
      expectProblem(res, 400, "idempotency_key_required");
    }
  });

  test("a replay returns the first answer and writes nothing again", async () => {
    const body = { itemId: ids.other, holder: { kind: "user", id: "alice" }, dueAt: at(20 * DAY) };
    const first = await api.post("/checkouts", body, { idem: "checkout-tripod-1" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const replay = await api.post("/checkouts", body, { idem: "checkout-tripod-1" });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("location")).toBe(first.headers.get("location"));
    expect((await movementsOf(ids.other)).filter((m) => m.kind === "checked_out")).toHaveLength(1);
    const reuse = await api.post("/checkouts", { ...body, note: "changed" }, { idem: "checkout-tripod-1" });
    expectProblem(reuse, 409, "idempotency_key_reuse");

    const ret1 = await api.post(`/checkouts/${first.body.id}/return`, { condition: "fair" }, { idem: "return-tripod-1" });
    const ret2 = await api.post(`/checkouts/${first.body.id}/return`, { condition: "fair" }, { idem: "return-tripod-1" });
    expect(ret1.status).toBe(200);
    expect(ret2.headers.get("idempotency-replayed")).toBe("true");
    expect(ret2.body).toEqual(ret1.body);
    const moves = await movementsOf(ids.other);
    expect(moves.map((m) => m.kind)).toEqual(["checked_out", "returned"]);
    const rows = await api.read((q) => q.select().from(movements).where(and(eq(movements.itemId, ids.other), eq(movements.kind, "returned"))));
    expect(rows).toHaveLength(1);
  });

  test("the OpenAPI document carries every custody operation", async () => {
    const doc = await env.call("GET", "/api/assets/openapi.json");
    expect(doc.status).toBe(200);
    const ops = Object.values(doc.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (const r of routes) expect(ops).toContain(r.operationId);
    expect(doc.body.components.schemas.Checkout).toBeDefined();
  });
});
