// Transit told as a story: a pallet holding two boxes of stage gear goes from the
// warehouse to a venue. It is packed (with a repack and a mistaken item taken
// out), dispatched, handed to a carrier, hit by a damage exception, resumed and
// received in two parts. At each step the items' stored location and
// availability, their chronology (GET /movements?itemId=…) and the outbox events
// are checked, with the refusals along the way.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, asc, eq, gte, inArray } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { itemBlocks, items, movements } from "../kernel/kernel.tables.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import { EVENT_KINDS } from "../../platform/outbox/outbox.ts";
import { gs1CheckDigit } from "../kernel/gs1.ts";
import { shipmentItems } from "./transit.tables.ts";

const MIN = 60_000;
const T0 = new Date("2026-05-04T08:00:00.000Z");
// Seeding happens before T0, so the story's own movements are those recorded from T0 on.
const clock = new MutableClock(new Date(T0.getTime() - 10 * MIN));
const api = await partnerKit({ clock, users: { "op-1": "operator", viewer: "viewer" } });
const env = api.env;
const P = api.partnerId;
afterAll(() => api.close());

/** Each step a minute after the previous one, so the chronology's order is the story's. */
const step = () => clock.advance(MIN);

const ids = { warehouse: "", shelf: "", venue: "", hub: "", elsewhere: "", a1: "", a2: "", b1: "", b2: "", spare: "", lent: "", away: "", shipment: "", pallet: "", boxA: "", boxB: "" };

const sscc = (serial: string) => {
  const body = `0${serial.padStart(16, "0")}`.slice(0, 17);
  return `${body}${gs1CheckDigit(body)}`;
};

const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const blocksOf = (id: string) =>
  api.read(async (q) => (await q.select().from(itemBlocks).where(eq(itemBlocks.itemId, id))).map((b) => `${b.kind}:${b.sourceId}`).sort());
/** The item's chronology from T0 on, oldest first, through the API. */
async function chronology(itemId: string) {
  const res = await api.get(`/movements?itemId=${itemId}&limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.items as Array<Record<string, any>>).filter((m) => m.recordedAt >= T0.toISOString()).reverse();
}
/** The outbox events about the item from T0 on, oldest first: the contract §10 kinds (the live streams' own kinds are src/assets/events'). */
const eventsOf = (itemId: string) =>
  api.read(async (q) =>
    (
      await q
        .select()
        .from(outbox)
        .where(and(eq(outbox.aggregateId, itemId), gte(outbox.occurredAt, T0.toISOString()), inArray(outbox.kind, [...EVENT_KINDS])))
        .orderBy(asc(outbox.occurredAt), asc(outbox.id))
    ).map((e) => e.kind),
  );
const countMovements = (itemId: string) =>
  api.read(async (q) => (await q.select().from(movements).where(and(eq(movements.itemId, itemId), gte(movements.recordedAt, T0.toISOString())))).length);

/** Stored location and availability of each item. */
async function expectItems(expected: Record<string, [location: string, availability: string]>) {
  for (const [id, [location, availability]] of Object.entries(expected)) {
    const row = await itemRow(id);
    expect({ id, location: row.locationId, availability: row.availability as string }).toEqual({ id, location, availability });
  }
}

beforeAll(async () => {
  await env.member(P, "seeder", "admin");
  const as = { as: "seeder" };
  ids.warehouse = (await api.seed.call("post", "/locations", { name: "Warehouse", kind: "site" }, as)).id;
  ids.shelf = (await api.seed.call("post", "/locations", { name: "Shelf 4", kind: "bin", parentId: ids.warehouse }, as)).id;
  ids.venue = (await api.seed.call("post", "/locations", { name: "Concert hall", kind: "site" }, as)).id;
  ids.hub = (await api.seed.call("post", "/locations", { name: "Carrier hub Leipzig", kind: "other" }, as)).id;
  ids.elsewhere = (await api.seed.call("post", "/locations", { name: "Other depot", kind: "site" }, as)).id;
  const active = async (name: string, locationId = ids.warehouse) => {
    const item = await api.seed.call("post", "/assets", { name, ownership: "owned", locationId }, as);
    await api.seed.call("post", `/items/${item.id}/activate`, {}, as);
    return item.id as string;
  };
  ids.a1 = await active("Mixing desk");
  ids.a2 = await active("Stage box");
  ids.b1 = await active("Moving head 1", ids.shelf);
  ids.b2 = await active("Moving head 2");
  ids.spare = await active("Spare cable drum");
  ids.lent = await active("Wireless mic");
  ids.away = await active("Projector at the depot", ids.elsewhere);
  await api.seed.checkout({ itemId: ids.lent, holder: { kind: "user", id: "op-1" } });
  clock.current = new Date(T0);
});

describe("a pallet of two boxes goes to the concert hall", () => {
  test("a draft shipment is created; GET /shipments/{id} is its Location", async () => {
    step();
    const bad = await api.post("/shipments", { originLocationId: ids.warehouse, destinationLocationId: ids.warehouse });
    expectFieldError(bad, "/body/destinationLocationId");
    expectFieldError(await api.post("/shipments", { originLocationId: env.deps.newId(), destinationLocationId: ids.venue }), "/body/originLocationId");
    expectProblem(await api.as("viewer").post("/shipments", { originLocationId: ids.warehouse, destinationLocationId: ids.venue }), 403, "capability_denied");

    const res = await api.post("/shipments", {
      originLocationId: ids.warehouse,
      destinationLocationId: ids.venue,
      carrier: "Road Crew Logistics",
      trackingReference: "RCL-0001",
      reference: "Tour 2026 / Leipzig",
      expectedArrivalAt: "2026-05-05T10:00:00+02:00",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: "draft",
      version: 1,
      carrier: "Road Crew Logistics",
      expectedArrivalAt: "2026-05-05T08:00:00.000Z",
      openException: null,
      createdBy: "op-1",
    });
    ids.shipment = res.body.id;
    expect(res.headers.get("location")).toBe(`/api/assets/shipments/${ids.shipment}?partnerId=${P}`);
    const detail = await api.as("viewer").get(`/shipments/${ids.shipment}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: ids.shipment, containers: [], contents: [], discrepancies: [] });
    expect(detail.body.events.map((e: any) => e.kind)).toEqual(["created"]);
    expectProblem(await api.get(`/shipments/${env.deps.newId()}`), 404, "not_found");
  });

  test("a pallet, a box nested in it and a box with an SSCC; bad and duplicate codes are refused", async () => {
    step();
    const pallet = await api.post(`/shipments/${ids.shipment}/containers`, { kind: "pallet", label: "P1", code: sscc("4711") });
    expect(pallet.status, JSON.stringify(pallet.body)).toBe(201);
    expect(pallet.body).toMatchObject({ kind: "pallet", state: "open", parentContainerId: null, itemIds: [], childContainerIds: [], version: 1 });
    expect(pallet.headers.get("location")).toBe(`/api/assets/containers/${pallet.body.id}?partnerId=${P}`);
    ids.pallet = pallet.body.id;

    const boxA = await api.post(`/shipments/${ids.shipment}/containers`, { kind: "box", label: "A", parentContainerId: ids.pallet });
    expect(boxA.status, JSON.stringify(boxA.body)).toBe(201);
    ids.boxA = boxA.body.id;
    // Something was put in the pallet: it is packed now.
    const palletNow = await api.get(`/containers/${ids.pallet}`);
    expect(palletNow.body).toMatchObject({ state: "packed", childContainerIds: [ids.boxA], version: 2 });

    const wrongDigit = sscc("4712").slice(0, 17) + String((Number(sscc("4712")[17]) + 1) % 10);
    expectFieldError(await api.post(`/shipments/${ids.shipment}/containers`, { kind: "box", code: wrongDigit }), "/body/code");
    expectProblem(await api.post(`/shipments/${ids.shipment}/containers`, { kind: "box", code: sscc("4711") }), 409, "duplicate");
    expectFieldError(await api.post(`/shipments/${ids.shipment}/containers`, { kind: "crate" }), "/body/kind");
    expectFieldError(await api.post(`/shipments/${ids.shipment}/containers`, { kind: "box", parentContainerId: env.deps.newId() }), "/body/parentContainerId");
    expectProblem(await api.post(`/shipments/${ids.shipment}/containers`, { kind: "box", expectedVersion: 1 }), 409, "version_conflict");

    const boxB = await api.post(`/shipments/${ids.shipment}/containers`, { kind: "box", label: "B", code: "BOX-B" });
    expect(boxB.status).toBe(201);
    ids.boxB = boxB.body.id;
  });

  test("items are packed: the packed block and an aggregation movement each; location and availability unchanged", async () => {
    step();
    const intoA = await api.post(`/containers/${ids.boxA}/pack`, { itemIds: [ids.a1, ids.a2] });
    expect(intoA.status, JSON.stringify(intoA.body)).toBe(200);
    expect(intoA.body).toMatchObject({ state: "packed", itemIds: [ids.a1, ids.a2], version: 2 });
    // b1 sits on a shelf inside the warehouse: inside the origin is at the origin.
    const intoB = await api.post(`/containers/${ids.boxB}/pack`, { itemIds: [ids.b1, ids.b2], expectedVersion: 1 });
    expect(intoB.status, JSON.stringify(intoB.body)).toBe(200);
    const boxBIntoPallet = await api.post(`/containers/${ids.pallet}/pack`, { containerIds: [ids.boxB] });
    expect(boxBIntoPallet.status, JSON.stringify(boxBIntoPallet.body)).toBe(200);
    expect(boxBIntoPallet.body.childContainerIds).toEqual([ids.boxA, ids.boxB]);

    await expectItems({ [ids.a1]: [ids.warehouse, "available"], [ids.b1]: [ids.shelf, "available"], [ids.b2]: [ids.warehouse, "available"] });
    expect(await blocksOf(ids.a1)).toEqual([`packed:${ids.boxA}`]);
    expect(await blocksOf(ids.b2)).toEqual([`packed:${ids.boxB}`]);
    const [packed] = await chronology(ids.a1);
    expect(packed).toMatchObject({
      kind: "packed",
      actorId: "op-1",
      bizLocationId: ids.warehouse,
      toLocationId: null,
      toContainerId: null,
      data: { shipmentId: ids.shipment, parentContainerId: ids.boxA, containerKind: "box" },
    });
    expect((await chronology(ids.b1))[0]).toMatchObject({ kind: "packed", bizLocationId: ids.shelf, data: { parentContainerId: ids.boxB, containerCode: "BOX-B" } });
    expect(await eventsOf(ids.a1)).toEqual(["container.packed"]);

    const detail = (await api.get(`/shipments/${ids.shipment}`)).body;
    expect(detail.containers.map((c: any) => [c.id, c.depth, c.itemIds])).toEqual([
      [ids.pallet, 0, []],
      [ids.boxA, 1, [ids.a1, ids.a2]],
      [ids.boxB, 1, [ids.b1, ids.b2]],
    ]);
    expect(detail.contents.map((c: any) => [c.itemId, c.containerId, c.state])).toEqual([
      [ids.a1, ids.boxA, "packed"],
      [ids.a2, ids.boxA, "packed"],
      [ids.b1, ids.boxB, "packed"],
      [ids.b2, ids.boxB, "packed"],
    ]);
  });

  test("an item is in one container at a time; checked-out, distant or packed items are refused", async () => {
    step();
    const twice = await api.post(`/containers/${ids.boxB}/pack`, { itemIds: [ids.a1] });
    expectProblem(twice, 409, "state_conflict");
    expect(twice.body.detail).toContain(ids.boxA);
    const lent = await api.post(`/containers/${ids.boxB}/pack`, { itemIds: [ids.lent] });
    expectProblem(lent, 409, "state_conflict");
    expect(lent.body.detail).toContain("checked_out");
    const away = await api.post(`/containers/${ids.boxB}/pack`, { itemIds: [ids.away] });
    expectProblem(away, 409, "state_conflict");
    expect(away.body.detail).toContain("origin");
    expectFieldError(await api.post(`/containers/${ids.boxB}/pack`, { itemIds: [ids.spare, ids.spare] }), "/body/itemIds/1");
    expectFieldError(await api.post(`/containers/${ids.boxB}/pack`, { itemIds: [env.deps.newId()] }), "/body/itemIds/0");
    expectFieldError(await api.post(`/containers/${ids.boxB}/pack`, {}), "/body");
    expectProblem(await api.post(`/containers/${env.deps.newId()}/pack`, { itemIds: [ids.spare] }), 404, "not_found");
    // A pallet cannot go into a box it holds.
    expectProblem(await api.post(`/containers/${ids.boxA}/pack`, { containerIds: [ids.pallet] }), 409, "cycle_detected");
    // The database says the same: a second packed row for an item is refused whatever the service checks.
    await expect(
      api.inTenant((ctx) =>
        ctx.deps.tenancy.writeTx(ctx.tenant, (tx) =>
          tx.insert(shipmentItems).values({ id: ctx.deps.newId(), shipmentId: ids.shipment, itemId: ids.a1, containerId: ids.boxB, state: "packed", packedAt: ctx.nowIso, packedBy: "test" }),
        ),
      ),
    ).rejects.toThrow();

    // A packed item travels with its container: it neither moves nor leaves on a checkout alone.
    expectProblem(await api.post(`/items/${ids.a1}/move`, { toLocationId: ids.venue }), 409, "state_conflict");
    const checkout = await api.post("/checkouts", { itemId: ids.a1, holder: { kind: "user", id: "op-1" }, dueAt: new Date(clock.now().getTime() + 86_400_000).toISOString() });
    expectProblem(checkout, 409, "state_conflict");
    // No refusal left a trace.
    expect(await countMovements(ids.lent)).toBe(0);
    expect(await countMovements(ids.a1)).toBe(1);
  });

  test("repack moves an item between boxes (unpacked then packed); unpack takes a mistaken item out of the shipment", async () => {
    step();
    const moved = await api.post(`/containers/${ids.boxA}/repack`, { toContainerId: ids.boxB, itemIds: [ids.a2], reason: "box A is full" });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // Box A keeps its state: a repack is recorded, not an unpacking.
    expect(moved.body).toMatchObject({ state: "packed", itemIds: [ids.a1] });
    expect(await blocksOf(ids.a2)).toEqual([`packed:${ids.boxB}`]);
    const a2 = await chronology(ids.a2);
    expect(a2.map((m) => [m.kind, m.data.parentContainerId])).toEqual([
      ["packed", ids.boxA],
      ["unpacked", ids.boxA],
      ["packed", ids.boxB],
    ]);
    expect(a2[1]).toMatchObject({ reason: "box A is full", data: { repackedTo: ids.boxB } });
    expect(await eventsOf(ids.a2)).toEqual(["container.packed", "container.unpacked", "container.packed"]);
    // …and back, by moving it with its box's other contents listed explicitly.
    expectFieldError(await api.post(`/containers/${ids.boxA}/repack`, { toContainerId: ids.boxB, itemIds: [ids.b1] }), "/body/itemIds/0");
    expectFieldError(await api.post(`/containers/${ids.boxA}/repack`, { toContainerId: ids.boxA }), "/body/toContainerId");
    expectFieldError(await api.post(`/containers/${ids.boxA}/repack`, {}), "/body");
    expectFieldError(await api.post(`/containers/${ids.boxA}/repack`, { toContainerId: ids.boxB, parentContainerId: null }), "/body");
    expect((await api.post(`/containers/${ids.boxB}/repack`, { toContainerId: ids.boxA, itemIds: [ids.a2] })).status).toBe(200);

    // The spare drum goes in by mistake and comes out again: it leaves the shipment.
    expect((await api.post(`/containers/${ids.boxA}/pack`, { itemIds: [ids.spare] })).status).toBe(200);
    const out = await api.post(`/containers/${ids.boxA}/unpack`, { itemIds: [ids.spare], reason: "not for this tour" });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body).toMatchObject({ state: "packed", itemIds: [ids.a1, ids.a2] });
    expect(await blocksOf(ids.spare)).toEqual([]);
    expect((await chronology(ids.spare)).map((m) => m.kind)).toEqual(["packed", "unpacked"]);
    expect(await eventsOf(ids.spare)).toEqual(["container.packed", "container.unpacked"]);
    expectFieldError(await api.post(`/containers/${ids.boxA}/unpack`, { itemIds: [ids.spare] }), "/body/itemIds/0");
    const detail = (await api.get(`/shipments/${ids.shipment}`)).body;
    expect(detail.contents.map((c: any) => c.itemId).sort()).toEqual([ids.a1, ids.a2, ids.b1, ids.b2].sort());
    expect(detail.events.slice(0, 2).map((e: any) => [e.kind, e.reason])).toEqual([
      ["unpacked", "not for this tour"],
      ["packed", null],
    ]);
  });

  test("dispatched: every packed item in transit at its origin; the containers are sealed", async () => {
    step();
    const current = (await api.get(`/shipments/${ids.shipment}`)).body;
    expectProblem(await api.post(`/shipments/${ids.shipment}/dispatch`, { expectedVersion: current.version - 1 }), 409, "version_conflict");
    const res = await api.post(`/shipments/${ids.shipment}/dispatch`, { expectedVersion: current.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "dispatched", dispatchedAt: clock.now().toISOString(), version: current.version + 1 });
    expect(res.body.events[0]).toMatchObject({ kind: "dispatched", actorId: "op-1" });

    await expectItems({
      [ids.a1]: [ids.warehouse, "in_transit"],
      [ids.a2]: [ids.warehouse, "in_transit"],
      [ids.b1]: [ids.shelf, "in_transit"],
      [ids.b2]: [ids.warehouse, "in_transit"],
      [ids.spare]: [ids.warehouse, "available"],
    });
    expect(await blocksOf(ids.b2)).toEqual([`in_transit:${ids.shipment}`, `packed:${ids.boxB}`].sort());
    expect((await chronology(ids.b2)).at(-1)).toMatchObject({
      kind: "dispatched",
      bizLocationId: ids.warehouse,
      toLocationId: null,
      data: { shipmentId: ids.shipment, containerId: ids.boxB, destinationLocationId: ids.venue, carrier: "Road Crew Logistics" },
    });
    expect((await eventsOf(ids.b2)).at(-1)).toBe("shipment.dispatched");
    // GET /summary counts availability in_transit from the items: these four.
    expect((await api.get("/summary")).body.inTransit).toBe(4);

    const again = await api.post(`/shipments/${ids.shipment}/dispatch`, {});
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("dispatched");
    for (const [path, body] of [
      [`/containers/${ids.boxA}/pack`, { itemIds: [ids.spare] }],
      [`/containers/${ids.boxA}/unpack`, {}],
      [`/containers/${ids.boxA}/repack`, { toContainerId: ids.boxB }],
      [`/shipments/${ids.shipment}/containers`, { kind: "case" }],
    ] as const) {
      const sealed = await api.post(path, body);
      expectProblem(sealed, 409, "state_conflict", path);
      expect(sealed.body.detail).toContain("dispatched");
    }
    // Receiving needs a carrier's handoff first; returning needs an exception.
    const early = await api.post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.a1 }] });
    expectProblem(early, 409, "state_conflict");
    expect(early.body.detail).toContain("dispatched");
    expectProblem(await api.post(`/shipments/${ids.shipment}/return-to-sender`, {}), 409, "state_conflict");
  });

  test("handed to the carrier at its hub: a handed_off movement per item at that read point", async () => {
    step();
    expectFieldError(await api.post(`/shipments/${ids.shipment}/handoff`, { carrier: "Fast Freight", readPointId: env.deps.newId() }), "/body/readPointId");
    const res = await api.post(`/shipments/${ids.shipment}/handoff`, { carrier: "Fast Freight", readPointId: ids.hub, trackingReference: "FF-778" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "in_transit", carrier: "Fast Freight", trackingReference: "FF-778", lastReadPointId: ids.hub });
    await expectItems({ [ids.a1]: [ids.warehouse, "in_transit"], [ids.b1]: [ids.shelf, "in_transit"] });
    expect((await chronology(ids.a1)).at(-1)).toMatchObject({
      kind: "handed_off",
      readPointId: ids.hub,
      bizLocationId: ids.warehouse,
      data: { carrier: "Fast Freight", fromCarrier: "Road Crew Logistics", resumed: false },
    });
    expect((await eventsOf(ids.a1)).at(-1)).toBe("shipment.handed_off");
  });

  test("a damage exception on one moving head; a second exception is refused until resumed", async () => {
    step();
    expectFieldError(await api.post(`/shipments/${ids.shipment}/exceptions`, { kind: "damage", note: "crushed corner", itemIds: [ids.spare] }), "/body/itemIds/0");
    expectFieldError(await api.post(`/shipments/${ids.shipment}/exceptions`, { kind: "damage", note: "  " }), "/body/note");
    const res = await api.post(`/shipments/${ids.shipment}/exceptions`, { kind: "damage", note: "crushed corner on box B", itemIds: [ids.b1] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: "exception",
      openException: { kind: "damage", note: "crushed corner on box B", itemIds: [ids.b1], raisedAt: clock.now().toISOString(), raisedBy: "op-1" },
    });
    expect((await chronology(ids.b1)).at(-1)).toMatchObject({
      kind: "transit_exception",
      reason: "crushed corner on box B",
      readPointId: ids.hub,
      data: { exceptionKind: "damage", containerId: ids.boxB },
    });
    expect((await eventsOf(ids.b1)).at(-1)).toBe("shipment.exception");
    // Only the named item is affected.
    expect((await chronology(ids.b2)).at(-1)!.kind).toBe("handed_off");
    await expectItems({ [ids.b1]: [ids.shelf, "in_transit"] });

    const second = await api.post(`/shipments/${ids.shipment}/exceptions`, { kind: "delay", note: "traffic" });
    expectProblem(second, 409, "state_conflict");
    expect(second.body.detail).toContain("exception");
    expect(second.body.state).toBe("exception");
  });

  test("resumed by a handoff: back in transit, the exception closed and kept in the history", async () => {
    step();
    const res = await api.post(`/shipments/${ids.shipment}/handoff`, { carrier: "Fast Freight", readPointId: ids.hub, note: "box B re-taped" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "in_transit", openException: null });
    expect(res.body.events[0]).toMatchObject({ kind: "resumed", reason: "box B re-taped", data: { exception: { kind: "damage", itemIds: [ids.b1] } } });
    expect((await chronology(ids.b1)).at(-1)).toMatchObject({ kind: "handed_off", data: { resumed: true } });
  });

  test("partly received: listed items arrive, the rest stay in transit as missing, a stranger is unexpected; replay receives nothing twice", async () => {
    step();
    const stranger = env.deps.newId();
    const body = {
      items: [
        { itemId: ids.a1, condition: "good" },
        { itemId: ids.b1, condition: "poor", damaged: true, note: "lens cracked" },
        { itemId: ids.spare },
        { itemId: stranger },
      ],
      note: "first truck",
    };
    expectFieldError(await api.post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.a1 }, { itemId: ids.a1 }] }), "/body/items/1/itemId");
    expectFieldError(await api.post(`/shipments/${ids.shipment}/receive`, { items: [] }), "/body/items");
    const res = await api.post(`/shipments/${ids.shipment}/receive`, body, { idem: "receipt-1" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "in_transit", receivedAt: null });
    const byKind = (k: string) => res.body.discrepancies.filter((d: any) => d.kind === k).map((d: any) => d.itemId).sort();
    expect(byKind("damaged")).toEqual([ids.b1]);
    expect(byKind("unexpected")).toEqual([ids.spare, stranger].sort());
    expect(byKind("missing")).toEqual([ids.a2, ids.b2].sort());
    expect(res.body.discrepancies.find((d: any) => d.kind === "damaged")).toMatchObject({ note: "lens cracked", recordedBy: "op-1", resolvedAt: null });
    expect(res.body.contents.map((c: any) => [c.itemId, c.state])).toEqual([
      [ids.a1, "received"],
      [ids.a2, "packed"],
      [ids.b1, "received"],
      [ids.b2, "packed"],
    ]);
    expect(res.body.events[0]).toMatchObject({ kind: "received", reason: "first truck", data: { complete: false, locationId: ids.venue } });

    await expectItems({
      [ids.a1]: [ids.venue, "available"],
      [ids.b1]: [ids.venue, "available"],
      [ids.a2]: [ids.warehouse, "in_transit"],
      [ids.b2]: [ids.warehouse, "in_transit"],
      [ids.spare]: [ids.warehouse, "available"],
    });
    expect((await itemRow(ids.b1)).condition).toBe("poor");
    expect(await blocksOf(ids.a1)).toEqual([]);
    expect(await blocksOf(ids.a2)).toEqual([`in_transit:${ids.shipment}`, `packed:${ids.boxA}`].sort());
    const [received, unpacked] = (await chronology(ids.b1)).slice(-2);
    expect(received).toMatchObject({
      kind: "received",
      fromLocationId: ids.shelf,
      toLocationId: ids.venue,
      bizLocationId: ids.venue,
      reason: "lens cracked",
      data: { shipmentId: ids.shipment, containerId: ids.boxB, condition: "poor", damaged: true },
    });
    expect(unpacked).toMatchObject({ kind: "unpacked", bizLocationId: ids.venue, data: { parentContainerId: ids.boxB, received: true } });
    // The unexpected item was not touched.
    expect((await chronology(ids.spare)).map((m) => m.kind)).toEqual(["packed", "unpacked"]);
    expect((await api.get("/summary")).body.inTransit).toBe(2);

    // The same key replays the first answer; nothing is received twice.
    const before = await countMovements(ids.a1);
    const replay = await api.post(`/shipments/${ids.shipment}/receive`, body, { idem: "receipt-1" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(res.body);
    expect(await countMovements(ids.a1)).toBe(before);
    // A new key naming a received item again is a conflict, not a second receipt.
    const twice = await api.post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.a1 }] });
    expectProblem(twice, 409, "state_conflict");
    expect(twice.body.detail).toContain("received");
  });

  test("the rest arrives: the shipment is received, the missing resolved, every container unpacked", async () => {
    step();
    const res = await api.post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.a2 }, { itemId: ids.b2 }], locationId: ids.venue });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "received", receivedAt: clock.now().toISOString() });
    expect(res.body.discrepancies.filter((d: any) => d.kind === "missing").map((d: any) => d.resolvedAt)).toEqual([clock.now().toISOString(), clock.now().toISOString()]);
    expect(res.body.containers.map((c: any) => [c.id, c.state, c.itemIds])).toEqual([
      [ids.pallet, "unpacked", []],
      [ids.boxA, "unpacked", []],
      [ids.boxB, "unpacked", []],
    ]);
    await expectItems({
      [ids.a1]: [ids.venue, "available"],
      [ids.a2]: [ids.venue, "available"],
      [ids.b1]: [ids.venue, "available"],
      [ids.b2]: [ids.venue, "available"],
    });
    expect((await api.get("/summary")).body.inTransit).toBe(0);
    const late = await api.post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.a1 }] });
    expectProblem(late, 409, "state_conflict");
    expect(late.body.detail).toContain("received");
    // Received items are free again: they move and leave on checkouts.
    expect((await api.post(`/items/${ids.a1}/move`, { toLocationId: ids.hub })).status).toBe(200);
  });

  test("each item's chronology and outbox tell the whole trip", async () => {
    expect((await chronology(ids.a1)).map((m) => m.kind)).toEqual(["packed", "dispatched", "handed_off", "handed_off", "received", "unpacked", "moved"]);
    expect((await chronology(ids.b1)).map((m) => m.kind)).toEqual([
      "packed",
      "dispatched",
      "handed_off",
      "transit_exception",
      "handed_off",
      "received",
      "unpacked",
    ]);
    expect((await chronology(ids.a2)).map((m) => m.kind)).toEqual([
      "packed",
      "unpacked",
      "packed",
      "unpacked",
      "packed",
      "dispatched",
      "handed_off",
      "handed_off",
      "received",
      "unpacked",
    ]);
    expect(await eventsOf(ids.b1)).toEqual([
      "container.packed",
      "shipment.dispatched",
      "shipment.handed_off",
      "shipment.exception",
      "shipment.handed_off",
      "shipment.received",
      "container.unpacked",
    ]);
    const history = (await api.get(`/shipments/${ids.shipment}`)).body.events.map((e: any) => e.kind).reverse();
    expect(history).toEqual([
      "created",
      "container_added",
      "container_added",
      "container_added",
      "packed",
      "packed",
      "packed",
      "repacked",
      "repacked",
      "packed",
      "unpacked",
      "dispatched",
      "handed_off",
      "exception",
      "resumed",
      "received",
      "received",
    ]);
  });
});
