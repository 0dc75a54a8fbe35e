// transit_exception_resolution: a shipment held up by an exception is resumed,
// re-routed, or its lost items written off, each on approval only; and an approval
// that comes after the shipment was already dealt with applies nothing.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { items } from "../kernel/kernel.tables.ts";
import { workflowCases } from "./workflow.tables.ts";

const T0 = new Date("2026-04-06T08:00:00.000Z");
const clock = new MutableClock(new Date(T0.getTime() - 60_000));
const api = await partnerKit({ clock, users: { admin: "admin", op: "operator", mgr: "manager" } });
afterAll(() => api.close());

const op = api.as("op");
const mgr = api.as("mgr");
const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const caseRow = (id: string) => api.read(async (q) => (await q.select().from(workflowCases).where(eq(workflowCases.id, id)))[0]!);
const shipmentOf = async (id: string) => (await api.get(`/shipments/${id}`)).body;

const loc = { origin: "", venue: "", annex: "", hub: "" };
beforeAll(async () => {
  loc.origin = (await api.seed.location({ name: "Warehouse" })).id;
  loc.venue = (await api.seed.location({ name: "Venue" })).id;
  loc.annex = (await api.seed.location({ name: "Annex" })).id;
  loc.hub = (await api.seed.location({ name: "Carrier hub" })).id;
  clock.current = T0;
});

/** A dispatched shipment of `n` items in one box, with an exception naming `lost` of them (all when omitted). */
async function shipmentInException(n: number, lost?: number) {
  const list: string[] = [];
  for (let i = 0; i < n; i++) list.push((await api.seed.activeAsset({ locationId: loc.origin })).id);
  const shipment = await api.seed.call("post", "/shipments", { originLocationId: loc.origin, destinationLocationId: loc.venue, carrier: "Road Crew" });
  const box = await api.seed.call("post", `/shipments/${shipment.id}/containers`, { kind: "box" });
  await api.seed.call("post", `/containers/${box.id}/pack`, { itemIds: list });
  await api.seed.call("post", `/shipments/${shipment.id}/dispatch`, {});
  await api.seed.call("post", `/shipments/${shipment.id}/exceptions`, {
    kind: "loss",
    note: "Box missing at the depot",
    ...(lost !== undefined ? { itemIds: list.slice(0, lost) } : {}),
  });
  return { shipmentId: shipment.id as string, itemIds: list };
}

async function propose(operation: Record<string, unknown>) {
  const res = await op.post("/workflow-cases", { type: "transit_exception_resolution", operation });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function approve(c: Record<string, any>) {
  clock.advance(1000);
  const res = await mgr.post(`/workflow-cases/${c.id}/decision`, { decision: "approve", reason: "Confirmed with the carrier", expectedVersion: c.version });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.state).toBe("completed");
  return res.body;
}

describe("transit_exception_resolution", () => {
  test("a shipment not in exception cannot be resolved", async () => {
    const shipment = await api.seed.call("post", "/shipments", { originLocationId: loc.origin, destinationLocationId: loc.venue });
    expectProblem(await op.post("/workflow-cases", { type: "transit_exception_resolution", operation: { resolution: "accept_loss", shipmentId: shipment.id } }), 409, "state_conflict");
    expectFieldError(
      await op.post("/workflow-cases", { type: "transit_exception_resolution", operation: { resolution: "accept_loss", shipmentId: api.env.deps.newId() } }),
      "/body/operation/shipmentId",
    );
  });

  test("approved resume: the shipment is in transit again with the new carrier", async () => {
    const { shipmentId } = await shipmentInException(2);
    const c = await propose({ resolution: "resume", shipmentId, carrier: "Rail Freight", readPointId: loc.hub });
    expect((await shipmentOf(shipmentId)).status).toBe("exception");
    const done = await approve(c);
    const shipment = await shipmentOf(shipmentId);
    expect(shipment).toMatchObject({ status: "in_transit", carrier: "Rail Freight", openException: null });
    expect(shipment.events[0]).toMatchObject({ kind: "resumed", actorId: "mgr" });
    expect(done.applicationReceipt.records).toEqual([{ recordType: "shipment", recordId: shipmentId, version: shipment.version }]);
  });

  test("approved re-route: a new destination, then in transit again", async () => {
    const { shipmentId } = await shipmentInException(1);
    expectProblem(
      await op.post("/workflow-cases", {
        type: "transit_exception_resolution",
        operation: { resolution: "reroute", shipmentId, destinationLocationId: loc.origin, carrier: "Rail Freight", readPointId: loc.hub },
      }),
      409,
      "state_conflict",
    );
    const done = await approve(await propose({ resolution: "reroute", shipmentId, destinationLocationId: loc.annex, carrier: "Rail Freight", readPointId: loc.hub }));
    const shipment = await shipmentOf(shipmentId);
    expect(shipment).toMatchObject({ status: "in_transit", destinationLocationId: loc.annex });
    expect(shipment.events.slice(0, 2).map((e: any) => e.kind)).toEqual(["resumed", "rerouted"]);
    expect(done.applicationReceipt.records).toEqual([{ recordType: "shipment", recordId: shipmentId, version: shipment.version }]);
  });

  test("approved accept_loss of part of a shipment: the lost item is written off, the rest travels on", async () => {
    const { shipmentId, itemIds } = await shipmentInException(2, 1);
    const done = await approve(await propose({ resolution: "accept_loss", shipmentId }));
    const shipment = await shipmentOf(shipmentId);
    expect(shipment.status).toBe("in_transit");
    expect(shipment.contents.map((c: any) => [c.itemId, c.state])).toEqual(expect.arrayContaining([[itemIds[0], "lost"], [itemIds[1], "packed"]]));
    expect(shipment.discrepancies).toEqual([expect.objectContaining({ itemId: itemIds[0], kind: "missing" })]);
    const lost = await itemRow(itemIds[0]!);
    expect(lost).toMatchObject({ lifecycle: "disposed", availability: "unavailable" });
    expect((await itemRow(itemIds[1]!)).availability).toBe("in_transit");
    expect(done.applicationReceipt.records).toEqual([
      { recordType: "shipment", recordId: shipmentId, version: shipment.version },
      { recordType: "item", recordId: itemIds[0], version: lost.version },
    ]);
  });

  test("approved accept_loss of everything: the shipment ends, nothing more will arrive", async () => {
    const { shipmentId, itemIds } = await shipmentInException(2);
    await approve(await propose({ resolution: "accept_loss", shipmentId }));
    const shipment = await shipmentOf(shipmentId);
    expect(shipment.status).toBe("received");
    expect(shipment.events[0]).toMatchObject({ kind: "loss_accepted", data: { itemIds } });
    expect((await Promise.all(itemIds.map(itemRow))).map((i) => i.lifecycle)).toEqual(["disposed", "disposed"]);
  });

  test("invalid at approval: the shipment was returned to sender meanwhile; nothing is applied", async () => {
    const { shipmentId, itemIds } = await shipmentInException(2);
    const c = await propose({ resolution: "accept_loss", shipmentId });
    await api.seed.call("post", `/shipments/${shipmentId}/return-to-sender`, { reason: "Found at the depot" });
    const before = { shipment: await shipmentOf(shipmentId), items: await Promise.all(itemIds.map(itemRow)) };
    clock.advance(1000);
    const res = await mgr.post(`/workflow-cases/${c.id}/decision`, { decision: "approve", reason: "Confirmed with the carrier", expectedVersion: 1 });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toContain("returned_to_sender");
    expect(await shipmentOf(shipmentId)).toEqual(before.shipment);
    expect(await Promise.all(itemIds.map(itemRow))).toEqual(before.items);
    expect(await caseRow(c.id)).toMatchObject({ state: "pending", version: 1, applicationReceipt: null });
    const history = (await mgr.get(`/workflow-cases/${c.id}`)).body.history;
    expect(history.map((h: any) => [h.kind, h.actorId])).toEqual([
      ["created", "op"],
      ["approval_failed", "mgr"],
    ]);
  });
});
