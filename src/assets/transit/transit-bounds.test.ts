// A big shipment: 205 items in one box on a pallet, with 202 more (empty) boxes. Every
// answer that embeds the shipment (the detail and the commands) carries at most 200
// containers and 200 contents with exact counts, a container at most 200 item ids, and
// the rest is reached through the paged routes (shared signed cursor, exact totals).
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { eq } from "drizzle-orm";
import { shipmentEvents } from "./transit.tables.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 10, users: { ada: "admin", ola: "operator", vic: "viewer" } });
afterAll(() => api.close());

const ITEMS = 205;
const EMPTY_BOXES = 202;
const ids = { origin: "", destination: "", shipment: "", pallet: "", box: "", other: "", items: [] as string[], boxes: [] as string[] };

beforeAll(async () => {
  ids.origin = (await api.seed.location({ name: "Warehouse", kind: "site" })).id;
  ids.destination = (await api.seed.location({ name: "Festival site", kind: "site" })).id;
  for (let i = 0; i < ITEMS; i++) ids.items.push((await api.seed.activeAsset({ name: `Crowd barrier ${i}`, locationId: ids.origin })).id);
  ids.shipment = (await api.seed.call("post", "/shipments", { originLocationId: ids.origin, destinationLocationId: ids.destination, reference: "FEST-1" })).id;
  ids.pallet = (await api.seed.call("post", `/shipments/${ids.shipment}/containers`, { kind: "pallet" })).id;
  ids.box = (await api.seed.call("post", `/shipments/${ids.shipment}/containers`, { kind: "box", parentContainerId: ids.pallet, label: "Barriers" })).id;
  for (let i = 0; i < ids.items.length; i += 100) {
    await api.seed.call("post", `/containers/${ids.box}/pack`, { itemIds: ids.items.slice(i, i + 100) });
  }
  for (let i = 0; i < EMPTY_BOXES; i++) ids.boxes.push((await api.seed.call("post", `/shipments/${ids.shipment}/containers`, { kind: "box", label: `Spare ${i}` })).id);
  // Another shipment, so cursors can be tried across shipments.
  ids.other = (await api.seed.call("post", "/shipments", { originLocationId: ids.origin, destinationLocationId: ids.destination })).id;
  // 600-odd writes: over a libSQL server this takes longer than a hook's default 5 s.
}, 120_000);

type Detail = Record<string, any>;

/** The bounds every answer embedding the shipment keeps. */
function expectBounded(d: Detail) {
  expect(d.contents).toHaveLength(200);
  expect(d).toMatchObject({ contentCount: ITEMS, contentsTruncated: true, containerCount: 2 + EMPTY_BOXES, containersTruncated: true });
  expect(d.containers).toHaveLength(200);
  // The first 200 packed, in packing order.
  expect(d.contents.map((c: { itemId: string }) => c.itemId)).toEqual(ids.items.slice(0, 200));
  // Depth first: the pallet, the box in it, then the spare boxes oldest first.
  expect(d.containers.slice(0, 3).map((c: { id: string; depth: number }) => [c.id, c.depth])).toEqual([
    [ids.pallet, 0],
    [ids.box, 1],
    [ids.boxes[0], 0],
  ]);
  const box = d.containers[1];
  expect(box).toMatchObject({ itemCount: ITEMS, childContainerCount: 0 });
  // A node lists only the items this answer embeds: all 200 of them here, no more.
  expect(box.itemIds).toEqual(ids.items.slice(0, 200));
  expect(d.containers[0]).toMatchObject({ childContainerIds: [ids.box], childContainerCount: 1, itemIds: [], itemCount: 0 });
  const idsInNodes = d.containers.reduce((n: number, c: { itemIds: string[] }) => n + c.itemIds.length, 0);
  expect(idsInNodes).toBeLessThanOrEqual(200);
  // The history: its latest 200 lines, newest first, beside the exact count.
  expect(d.events.length).toBeLessThanOrEqual(200);
  expect(d.eventsTruncated).toBe(d.eventCount > 200);
}

const historyCount = async () => (await api.read((q) => q.select().from(shipmentEvents).where(eq(shipmentEvents.shipmentId, ids.shipment)))).length;

/** Every row of a paged shipment route, following nextCursor to the end; each page's total is the first one's. */
async function walk(path: string, query: Record<string, string | number> = {}): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  let total: number | undefined;
  do {
    const r: Detail = await api.get(path, { query: { ...query, limit: 200, ...(cursor ? { cursor } : {}) } });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    total ??= r.body.total;
    expect(r.body.total).toBe(total!);
    out.push(...r.body.items);
    cursor = r.body.nextCursor;
  } while (cursor);
  expect(out).toHaveLength(total!);
  return out;
}

describe("a shipment larger than one answer", () => {
  test("GET /shipments/{id} embeds at most 200 containers and 200 contents, with exact counts", async () => {
    const r = await api.as("vic").get(`/shipments/${ids.shipment}`);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expectBounded(r.body);
  });

  test("a container answers at most 200 item ids with its exact itemCount", async () => {
    const box = (await api.as("vic").get(`/containers/${ids.box}`)).body;
    expect(box).toMatchObject({ itemCount: ITEMS, childContainerCount: 0 });
    expect(box.itemIds).toEqual(ids.items.slice(0, 200));
    const pallet = (await api.get(`/containers/${ids.pallet}`)).body;
    expect(pallet).toMatchObject({ itemIds: [], itemCount: 0, childContainerIds: [ids.box], childContainerCount: 1 });
  });

  test("GET /shipments/{id}/contents pages every content exactly once, newest packed first", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: Detail = await api.as("vic").get(`/shipments/${ids.shipment}/contents`, { query: { limit: 100, ...(cursor ? { cursor } : {}) } });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      expect(r.body).toMatchObject({ total: ITEMS, limit: 100, filters: {} });
      seen.push(...r.body.items.map((c: { itemId: string }) => c.itemId));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids.items].reverse());

    const inBox = (await api.get(`/shipments/${ids.shipment}/contents`, { query: { containerId: ids.box, state: "packed", limit: 5 } })).body;
    expect(inBox).toMatchObject({ total: ITEMS, filters: { containerId: ids.box, state: ["packed"] } });
    expect(inBox.items[0]).toMatchObject({ itemId: ids.items.at(-1), containerId: ids.box, state: "packed" });
    expect((await api.get(`/shipments/${ids.shipment}/contents`, { query: { containerId: ids.pallet } })).body.total).toBe(0);
    expect((await api.get(`/shipments/${ids.shipment}/contents`, { query: { state: "received" } })).body.total).toBe(0);
  });

  test("GET /shipments/{id}/containers pages every container exactly once, with counts instead of id lists", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: Detail = await api.get(`/shipments/${ids.shipment}/containers`, { query: { limit: 200, ...(cursor ? { cursor } : {}) } });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      expect(r.body.total).toBe(2 + EMPTY_BOXES);
      seen.push(...r.body.items.map((c: { id: string }) => c.id));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([ids.pallet, ids.box, ...ids.boxes].sort());
    const children = (await api.get(`/shipments/${ids.shipment}/containers`, { query: { parentContainerId: ids.pallet } })).body;
    expect(children).toMatchObject({ total: 1, filters: { parentContainerId: ids.pallet } });
    expect(children.items[0]).toMatchObject({ id: ids.box, itemCount: ITEMS, childContainerCount: 0, state: "packed" });
    expect(children.items[0].itemIds).toBeUndefined();
    expect((await api.get(`/shipments/${ids.shipment}/containers`, { query: { state: "open" } })).body.total).toBe(EMPTY_BOXES + 0);
  });

  test("the paged routes refuse bad queries, foreign cursors and unknown shipments", async () => {
    const page = (await api.get(`/shipments/${ids.shipment}/contents`, { query: { limit: 1 } })).body;
    expectProblem(await api.get(`/shipments/${ids.other}/contents`, { query: { limit: 1, cursor: page.nextCursor } }), 400, "invalid_cursor");
    expectFieldError(await api.get(`/shipments/${ids.shipment}/contents`, { query: { limit: 201 } }), "/query/limit");
    expectFieldError(await api.get(`/shipments/${ids.shipment}/contents`, { query: { state: "lost-ish" } }), "/query/state");
    expectProblem(await api.get(`/shipments/${api.env.deps.newId()}/contents`), 404, "not_found");
    expectProblem(await api.get(`/shipments/${api.env.deps.newId()}/containers`), 404, "not_found");
  });

  test("the command answers are bounded the same way: dispatch", async () => {
    const r = await api.as("ola").post(`/shipments/${ids.shipment}/dispatch`, {});
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.status).toBe("dispatched");
    expectBounded(r.body);
    // 204 containers added, created, packed and dispatched: more history than one answer holds.
    expect(r.body).toMatchObject({ eventCount: await historyCount(), eventsTruncated: true });
    expect(r.body.events).toHaveLength(200);
    expect(r.body.events[0]).toMatchObject({ kind: "dispatched", actorId: "ola" });
  });

  test("a partial receipt's 204 missing discrepancies are bounded in the answer and page through /discrepancies; the history through /events", async () => {
    const handoff = await api.as("ola").post(`/shipments/${ids.shipment}/handoff`, { carrier: "Road Co", readPointId: ids.origin });
    expect(handoff.status, JSON.stringify(handoff.body).slice(0, 300)).toBe(200);
    const r = await api.as("ola").post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.items[0] }] });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body).toMatchObject({ status: "in_transit", discrepancyCount: ITEMS - 1, discrepanciesTruncated: true, contentCount: ITEMS });
    expect(r.body.discrepancies).toHaveLength(200);
    expect(r.body.contents[0]).toMatchObject({ itemId: ids.items[0], state: "received" });
    // The box's node now lists only the embedded items still packed in it.
    expect(r.body.containers[1]).toMatchObject({ id: ids.box, itemCount: ITEMS - 1 });
    expect(r.body.containers[1].itemIds).toEqual(ids.items.slice(1, 200));

    const missing = await walk(`/shipments/${ids.shipment}/discrepancies`, { kind: "missing" });
    expect(missing.map((d) => d.itemId).sort()).toEqual(ids.items.slice(1).sort());
    expect((await api.get(`/shipments/${ids.shipment}/discrepancies`, { query: { itemId: ids.items[7]! } })).body).toMatchObject({
      total: 1,
      filters: { itemId: ids.items[7] },
      items: [{ itemId: ids.items[7], kind: "missing", resolvedAt: null }],
    });

    const history = await walk(`/shipments/${ids.shipment}/events`);
    expect(history).toHaveLength(await historyCount());
    expect(new Set(history.map((e) => e.id)).size).toBe(history.length);
    expect(history.slice(0, 3).map((e) => e.kind)).toEqual(["received", "handed_off", "dispatched"]);
    expect((await api.get(`/shipments/${ids.shipment}/events`, { query: { kind: "container_added" } })).body.total).toBe(2 + EMPTY_BOXES);
    expectFieldError(await api.get(`/shipments/${ids.shipment}/events`, { query: { kind: "teleported" } }), "/query/kind");
  });
});
