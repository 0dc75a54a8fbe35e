// The rest of transit's rules, one story each: a lost shipment returned to its
// sender, a receipt straight out of an exception, the container rules (nesting,
// emptied containers, cycles, what may be packed), dispatch re-checking what was
// packed, versions, and the shipment list's paging and filters.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { db } from "../../platform/db/transactions.ts";
import { itemBlocks, items, movements } from "../kernel/kernel.tables.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import { EVENT_KINDS } from "../../platform/outbox/outbox.ts";

const MIN = 60_000;
const T0 = new Date("2026-06-01T08:00:00.000Z");
const clock = new MutableClock(new Date(T0.getTime() - 10 * MIN));
const api = await partnerKit({ clock, users: { ops: "operator", viewer: "viewer" } });
const env = api.env;
const P = api.partnerId;
afterAll(() => api.close());

const L = { depot: "", bay: "", store: "", hub: "" };

const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const blocksOf = (id: string) => api.read(async (q) => (await q.select().from(itemBlocks).where(eq(itemBlocks.itemId, id))).map((b) => b.kind).sort());
const storyMoves = (itemId: string) =>
  api.read((q) =>
    q
      .select()
      .from(movements)
      .where(and(eq(movements.itemId, itemId), gte(movements.recordedAt, T0.toISOString())))
      .orderBy(asc(movements.recordedAt), asc(movements.id)),
  );
const storyEvents = (itemId: string) =>
  api.read(async (q) =>
    (await q.select().from(outbox).where(and(eq(outbox.aggregateId, itemId), gte(outbox.occurredAt, T0.toISOString()), inArray(outbox.kind, [...EVENT_KINDS]))).orderBy(asc(outbox.occurredAt), asc(outbox.id))).map(
      (e) => e.kind,
    ),
  );

async function activeItem(name: string, locationId = L.depot, extra: Record<string, unknown> = {}): Promise<string> {
  const item = await api.seed.call("post", "/assets", { name, ownership: "owned", locationId, ...extra }, { as: "seeder" });
  await api.seed.call("post", `/items/${item.id}/activate`, {}, { as: "seeder" });
  return item.id;
}

async function shipment(body: Record<string, unknown> = {}): Promise<string> {
  return (await api.create("/shipments", { originLocationId: L.depot, destinationLocationId: L.store, ...body })).id;
}
async function container(shipmentId: string, body: Record<string, unknown> = { kind: "box" }): Promise<string> {
  return (await api.create(`/shipments/${shipmentId}/containers`, body)).id;
}
async function ok(path: string, body: unknown = {}) {
  const res = await api.post(path, body);
  expect(res.status, `${path} → ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** A dispatched shipment carrying the given items in one box. */
async function dispatched(itemIds: string[]): Promise<{ shipmentId: string; boxId: string }> {
  const shipmentId = await shipment();
  const boxId = await container(shipmentId);
  await ok(`/containers/${boxId}/pack`, { itemIds });
  await ok(`/shipments/${shipmentId}/dispatch`);
  return { shipmentId, boxId };
}

beforeAll(async () => {
  await env.member(P, "seeder", "admin");
  const as = { as: "seeder" };
  L.depot = (await api.seed.call("post", "/locations", { name: "Depot", kind: "building" }, as)).id;
  L.bay = (await api.seed.call("post", "/locations", { name: "Bay 2", kind: "room", parentId: L.depot }, as)).id;
  L.store = (await api.seed.call("post", "/locations", { name: "Store", kind: "building" }, as)).id;
  L.hub = (await api.seed.call("post", "/locations", { name: "Hub", kind: "other" }, as)).id;
  clock.current = new Date(T0);
});

describe("a lost shipment comes back to its sender", () => {
  test("loss on every item, then return to sender: back at the origin, free, chronology only", async () => {
    clock.advance(MIN);
    const inBay = await activeItem("Truss segment", L.bay);
    const other = await activeItem("Truss clamp");
    const { shipmentId, boxId } = await dispatched([inBay, other]);
    const early = await api.post(`/shipments/${shipmentId}/return-to-sender`, {});
    expectProblem(early, 409, "state_conflict");
    expect(early.body.detail).toContain("dispatched");

    clock.advance(MIN);
    // No itemIds: every item still travelling is affected.
    const ex = await ok(`/shipments/${shipmentId}/exceptions`, { kind: "loss", note: "truck not found" });
    expect(ex.openException).toMatchObject({ kind: "loss", itemIds: [inBay, other] });
    for (const id of [inBay, other]) expect((await storyMoves(id)).at(-1)!.kind).toBe("transit_exception");

    clock.advance(MIN);
    const back = await ok(`/shipments/${shipmentId}/return-to-sender`, { reason: "found at the depot gate" });
    expect(back).toMatchObject({ status: "returned_to_sender", returnedAt: clock.now().toISOString(), openException: null });
    expect(back.contents.map((c: any) => c.state)).toEqual(["returned", "returned"]);
    expect(back.containers[0]).toMatchObject({ id: boxId, state: "unpacked" });
    expect(back.events[0]).toMatchObject({ kind: "returned_to_sender", reason: "found at the depot gate", data: { exception: { kind: "loss" } } });
    for (const id of [inBay, other]) {
      const row = await itemRow(id);
      expect([row.locationId, row.availability]).toEqual([L.depot, "available"]);
      expect(await blocksOf(id)).toEqual([]);
    }
    const [returned, unpacked] = (await storyMoves(inBay)).slice(-2);
    expect(returned).toMatchObject({ kind: "returned_to_sender", fromLocationId: L.bay, toLocationId: L.depot, bizLocationId: L.depot, reason: "found at the depot gate" });
    expect(unpacked).toMatchObject({ kind: "unpacked", data: { parentContainerId: boxId, returnedToSender: true } });
    // returned_to_sender publishes no event; the aggregation ending does.
    expect((await storyEvents(inBay)).filter((k) => k !== "asset.created")).toEqual(["container.packed", "shipment.dispatched", "shipment.exception", "container.unpacked"]);

    for (const [path, body] of [
      [`/shipments/${shipmentId}/handoff`, { carrier: "X", readPointId: L.hub }],
      [`/shipments/${shipmentId}/receive`, { items: [{ itemId: other }] }],
      [`/shipments/${shipmentId}/return-to-sender`, {}],
    ] as const) {
      const res = await api.post(path, body);
      expectProblem(res, 409, "state_conflict", path);
      expect(res.body.detail).toContain("returned_to_sender");
    }
  });

  test("after a partial receipt, only what still travels goes back", async () => {
    clock.advance(MIN);
    const first = await activeItem("Cable 1");
    const second = await activeItem("Cable 2");
    const { shipmentId } = await dispatched([first, second]);
    await ok(`/shipments/${shipmentId}/handoff`, { carrier: "Van", readPointId: L.hub });
    clock.advance(MIN);
    await ok(`/shipments/${shipmentId}/receive`, { items: [{ itemId: first }] });
    await ok(`/shipments/${shipmentId}/exceptions`, { kind: "wrong_destination", note: "sent to the wrong store" });
    const back = await ok(`/shipments/${shipmentId}/return-to-sender`);
    expect(back.contents.map((c: any) => [c.itemId, c.state])).toEqual([
      [first, "received"],
      [second, "returned"],
    ]);
    expect((await itemRow(first)).locationId).toBe(L.store);
    expect((await itemRow(second)).locationId).toBe(L.depot);
  });
});

describe("receiving out of an exception resumes it", () => {
  test("a delay, then the goods arrive: received directly from exception", async () => {
    clock.advance(MIN);
    const item = await activeItem("Subwoofer");
    const { shipmentId } = await dispatched([item]);
    await ok(`/shipments/${shipmentId}/exceptions`, { kind: "delay", note: "ferry cancelled" });
    clock.advance(MIN);
    const done = await ok(`/shipments/${shipmentId}/receive`, { items: [{ itemId: item }], locationId: L.bay });
    expect(done).toMatchObject({ status: "received", openException: null });
    expect(done.events[0].data).toMatchObject({ complete: true, resumedFrom: { kind: "delay" } });
    expect(await itemRow(item)).toMatchObject({ locationId: L.bay, availability: "available" });
    expectFieldError(await api.post(`/shipments/${shipmentId}/receive`, { items: [{ itemId: item }], locationId: env.deps.newId() }), "/body/locationId");
  });

  test("a receipt listing only strangers records them and leaves everything else travelling", async () => {
    clock.advance(MIN);
    const item = await activeItem("Amp rack");
    const { shipmentId } = await dispatched([item]);
    await ok(`/shipments/${shipmentId}/handoff`, { carrier: "Van", readPointId: L.hub });
    const res = await ok(`/shipments/${shipmentId}/receive`, { items: [{ itemId: env.deps.newId() }] });
    expect(res.status).toBe("in_transit");
    expect(res.discrepancies.map((d: any) => d.kind).sort()).toEqual(["missing", "unexpected"]);
    // A second partial receipt records the still-missing item once, not twice.
    const again = await ok(`/shipments/${shipmentId}/receive`, { items: [{ itemId: env.deps.newId() }] });
    expect(again.discrepancies.filter((d: any) => d.kind === "missing")).toHaveLength(1);
    expect(await itemRow(item)).toMatchObject({ locationId: L.depot, availability: "in_transit" });
  });
});

describe("containers", () => {
  test("emptied by unpack, a container is done; a partly unpacked one stays packed", async () => {
    const [x, y] = [await activeItem("X"), await activeItem("Y")];
    const s = await shipment();
    const box = await container(s);
    expectProblem(await api.post(`/containers/${box}/unpack`, {}), 409, "state_conflict");
    await ok(`/containers/${box}/pack`, { itemIds: [x, y] });
    expect(await ok(`/containers/${box}/unpack`, { itemIds: [x] })).toMatchObject({ state: "packed", itemIds: [y] });
    expect(await ok(`/containers/${box}/unpack`)).toMatchObject({ state: "unpacked", itemIds: [] });
    const refused = await api.post(`/containers/${box}/pack`, { itemIds: [x] });
    expectProblem(refused, 409, "state_conflict");
    expect(refused.body.detail).toContain("unpacked");
    expectProblem(await api.post(`/shipments/${s}/containers`, { kind: "box", parentContainerId: box }), 409, "state_conflict");
    // Nothing packed: nothing to dispatch.
    const empty = await api.post(`/shipments/${s}/dispatch`, {});
    expectProblem(empty, 409, "state_conflict");
    expect(empty.body.detail).toContain("nothing is packed");
  });

  test("nesting: a container moves into another, to the top level, never into itself; another shipment's is refused", async () => {
    const s = await shipment();
    const pallet = await container(s, { kind: "pallet" });
    const box = await container(s, { kind: "box" });
    const inner = await container(s, { kind: "case", parentContainerId: box });
    const foreign = await container(await shipment());
    expectFieldError(await api.post(`/containers/${pallet}/pack`, { containerIds: [foreign] }), "/body/containerIds/0");
    expectFieldError(await api.post(`/containers/${box}/repack`, { toContainerId: foreign }), "/body/toContainerId");
    // A nested container is moved with repack, not packed again.
    expectProblem(await api.post(`/containers/${pallet}/pack`, { containerIds: [inner] }), 409, "state_conflict");
    expectProblem(await api.post(`/containers/${box}/repack`, { parentContainerId: inner }), 409, "cycle_detected");

    const moved = await ok(`/containers/${box}/repack`, { parentContainerId: pallet, reason: "one pallet per truck" });
    expect(moved).toMatchObject({ parentContainerId: pallet, state: "packed", childContainerIds: [inner] });
    expect((await api.get(`/containers/${pallet}`)).body).toMatchObject({ state: "packed", childContainerIds: [box] });
    expectProblem(await api.post(`/containers/${box}/repack`, { parentContainerId: pallet }), 409, "state_conflict");
    const tree = (await api.get(`/shipments/${s}`)).body.containers.map((c: any) => [c.id, c.depth]);
    expect(tree).toEqual([
      [pallet, 0],
      [box, 1],
      [inner, 2],
    ]);
    // Out of the pallet again, to the top level; the pallet keeps its state.
    expect(await ok(`/containers/${box}/repack`, { parentContainerId: null })).toMatchObject({ parentContainerId: null });
    expect((await api.get(`/containers/${pallet}`)).body).toMatchObject({ state: "packed", childContainerIds: [] });
    expectFieldError(await api.post(`/containers/${box}/repack`, { parentContainerId: pallet, itemIds: [env.deps.newId()] }), "/body/itemIds");
    expectProblem(await api.get(`/containers/${env.deps.newId()}`), 404, "not_found");
  });

  test("what may be packed: planned, contained and containing items are refused", async () => {
    const s = await shipment();
    const box = await container(s);
    const planned = (await api.seed.call("post", "/assets", { name: "Not yet active", ownership: "owned", locationId: L.depot }, { as: "seeder" })).id;
    const res = await api.post(`/containers/${box}/pack`, { itemIds: [planned] });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toContain("planned");
    const caseItem = await activeItem("Flight case");
    const cable = await activeItem("Cable inside");
    await api.seed.call("post", `/items/${cable}/move`, { toContainerId: caseItem }, { as: "seeder" });
    expect((await api.post(`/containers/${box}/pack`, { itemIds: [cable] })).body.detail).toContain("inside item");
    expect((await api.post(`/containers/${box}/pack`, { itemIds: [caseItem] })).body.detail).toContain("holds other items");
    // Refused as a whole: the acceptable item listed with a refused one is not packed either.
    const fine = await activeItem("Fine item");
    expectProblem(await api.post(`/containers/${box}/pack`, { itemIds: [fine, planned] }), 409, "state_conflict");
    expect(await blocksOf(fine)).toEqual([]);
    // Nothing can be put into a packed item through the kernel's move either.
    await ok(`/containers/${box}/pack`, { itemIds: [fine] });
    expectProblem(await api.post(`/items/${cable}/move`, { toContainerId: fine }), 409, "state_conflict");
  });

  test("versions: stale expectedVersion is 409; one command is one new version of each record it changes", async () => {
    const s = await shipment();
    const pallet = await container(s, { kind: "pallet" });
    const box = await container(s);
    const item = await activeItem("Versioned");
    const before = (await api.get(`/shipments/${s}`)).body;
    expectProblem(await api.post(`/containers/${box}/pack`, { itemIds: [item], expectedVersion: 2 }), 409, "version_conflict");
    const packed = await ok(`/containers/${box}/pack`, { itemIds: [item], expectedVersion: 1 });
    expect(packed.version).toBe(2);
    // Moving the box into the pallet changes box, pallet and shipment once each.
    await ok(`/containers/${pallet}/pack`, { containerIds: [box], expectedVersion: 1 });
    const after = (await api.get(`/shipments/${s}`)).body;
    expect(after.version).toBe(before.version + 2);
    expect(after.containers.map((c: any) => [c.id, c.version])).toEqual([
      [pallet, 2],
      [box, 3],
    ]);
    expectProblem(await api.post(`/shipments/${s}/dispatch`, { expectedVersion: before.version }), 409, "version_conflict");
  });
});

describe("dispatch re-checks what was packed", () => {
  test("a reservation started since packing blocks dispatch until unpacked; packed stock cannot be used up", async () => {
    const s = await shipment();
    const box = await container(s);
    const reserved = await activeItem("Reserved light");
    await ok(`/containers/${box}/pack`, { itemIds: [reserved] });
    await api.seed.reservation({ itemId: reserved, startsAt: clock.now().toISOString(), endsAt: new Date(clock.now().getTime() + 86_400_000).toISOString() });
    const res = await api.post(`/shipments/${s}/dispatch`, {});
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toContain("reserved");
    expect(res.body.itemId).toBe(reserved);
    expect(await blocksOf(reserved)).toEqual(["packed", "reserved"]);

    const tape = await activeItem("Gaffer tape", L.depot, { tracking: "quantity", quantity: 5 });
    // Emptied, the first box is done; the tape goes into a second one.
    expect(await ok(`/containers/${box}/unpack`, { itemIds: [reserved] })).toMatchObject({ state: "unpacked" });
    await ok(`/containers/${await container(s)}/pack`, { itemIds: [tape] });
    // Stock on its way is consumed where it arrives: the items command refuses it while packed.
    const used = await api.post(`/items/${tape}/consume`, { quantity: 5 });
    expectProblem(used, 409, "state_conflict");
    expect(used.body.detail).toContain("packed");
    expect((await api.get(`/shipments/${s}`)).body.status).toBe("draft");
  });
});

describe("GET /shipments", () => {
  const made: Array<{ id: string; reference: string | null; carrier: string | null; tracking: string | null; status: string }> = [];

  beforeAll(async () => {
    const rows: Array<[string | null, string | null, string | null]> = [
      ["PO-1001", "DHL Express", "JD0001"],
      ["po-1002", "Schenker", "SCH-77"],
      ["PO-2001", "dhl freight", null],
      [null, "Kuehne", "PO-TRACK-9"],
      ["Tour/Leipzig", null, null],
      ["Tour/Berlin", "DHL Express", "JD0002"],
      ["misc", "UPS", "1Z999"],
    ];
    for (const [reference, carrier, tracking] of rows) {
      clock.advance(1000);
      const body: Record<string, unknown> = {};
      if (reference) body.reference = reference;
      if (carrier) body.carrier = carrier;
      if (tracking) body.trackingReference = tracking;
      const id = await shipment(body);
      made.push({ id, reference, carrier, tracking, status: "draft" });
    }
    // Two of them dispatched, which also makes them the most recently changed.
    for (const m of [made[1]!, made[5]!]) {
      clock.advance(1000);
      const box = await container(m.id);
      await ok(`/containers/${box}/pack`, { itemIds: [await activeItem(`Listed ${m.id}`)] });
      await ok(`/shipments/${m.id}/dispatch`);
      m.status = "dispatched";
    }
  });

  /** Walks every page of the query; returns the ids in order and checks the envelope. */
  async function walk(query: string, limit = 2): Promise<{ ids: string[]; total: number; filters: unknown }> {
    const out: string[] = [];
    let cursor: string | null = null;
    let total = -1;
    let filters: unknown;
    do {
      const res = await api.as("viewer").get(`/shipments?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.limit).toBe(limit);
      expect(res.body.items.length).toBeLessThanOrEqual(limit);
      total = res.body.total;
      filters = res.body.filters;
      out.push(...res.body.items.map((s: any) => s.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    return { ids: out, total, filters };
  }

  const mine = (ids: string[]) => ids.filter((id) => made.some((m) => m.id === id));
  const prefix = (v: string | null, p: string) => v !== null && v.toLowerCase().startsWith(p.toLowerCase());

  test("newest change first; every page walk is exact", async () => {
    const all = await walk("");
    // Other tests' shipments are in the list too; ours keep their order (dispatched last, so first).
    expect(mine(all.ids)).toEqual([made[5]!.id, made[1]!.id, ...made.filter((m) => m.status === "draft").map((m) => m.id).reverse()]);
    expect(new Set(all.ids).size).toBe(all.ids.length);
    expect(all.total).toBe(all.ids.length);
    expect(all.filters).toEqual({});
  });

  test("q is a case-insensitive prefix of reference, carrier or tracking reference", async () => {
    for (const q of ["po-", "dhl", "JD", "tour/", "sch", "1z9"]) {
      const res = await walk(`q=${encodeURIComponent(q)}`);
      const expected = made.filter((m) => prefix(m.reference, q) || prefix(m.carrier, q) || prefix(m.tracking, q)).map((m) => m.id);
      expect(mine(res.ids).sort(), q).toEqual(expected.sort());
      expect(res.filters).toEqual({ q });
    }
    // Not a substring search.
    expect(mine((await walk("q=express")).ids)).toEqual([]);
    expect((await walk("q=%20%20dhl%20")).filters).toEqual({ q: "dhl" });
  });

  test("status takes a comma-separated list and combines with q", async () => {
    const dispatchedOnly = await walk("status=dispatched");
    expect(mine(dispatchedOnly.ids)).toEqual([made[5]!.id, made[1]!.id]);
    expect(dispatchedOnly.filters).toEqual({ status: ["dispatched"] });
    const both = await walk("status=dispatched,%20draft&q=dhl");
    expect(mine(both.ids)).toEqual([made[5]!.id, made[2]!.id, made[0]!.id]);
    expect(both.total).toBe(both.ids.length);
    expect(both.filters).toEqual({ q: "dhl", status: ["dispatched", "draft"] });
    expectFieldError(await api.get("/shipments?status=lost"), "/query/status");
    expectFieldError(await api.get("/shipments?carrier=dhl"), "/query/carrier");
    expectFieldError(await api.get(`/shipments?q=${"x".repeat(201)}`), "/query/q");
  });

  test("a cursor is bound to its filters", async () => {
    const first = await api.get("/shipments?status=draft&limit=1");
    expectProblem(await api.get(`/shipments?status=dispatched&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`), 400, "invalid_cursor");
  });

  test("the shipments saved view takes exactly these filters", async () => {
    const view = await api.post("/saved-views", { name: "DHL on the road", surface: "shipments", query: { q: "dhl", status: ["dispatched", "in_transit"], limit: 20 } });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    expectFieldError(await api.post("/saved-views", { name: "Bad", surface: "shipments", query: { status: "lost" } }), "/body/query/status");
    expect((await api.post("/saved-views", { name: "Bad key", surface: "shipments", query: { carrier: "dhl" } })).status).toBe(400);
  });

  test("each counted filter is served by an index", async () => {
    const plan = (text: string) =>
      api.inTenant(async (ctx) => (await db(ctx).all<{ detail: string }>(sql.raw(`EXPLAIN QUERY PLAN ${text}`))).map((p) => p.detail).join("\n"));
    const q = (col: string) => `(lower(${col}) >= lower('dh') AND lower(${col}) < lower('dh') || char(1114111))`;
    const text = await plan(`SELECT count(*) FROM shipments WHERE ${q("reference")} OR ${q("carrier")} OR ${q("tracking_reference")}`);
    for (const idx of ["shipments_reference_ci_idx", "shipments_carrier_ci_idx", "shipments_tracking_ci_idx"]) expect(text).toContain(idx);
    expect(await plan(`SELECT count(*) FROM shipments WHERE status IN ('draft', 'received')`)).toContain("shipments_status_page_idx");
  });
});
