// A corrected location applied to the item behaves like a move: the place must be
// usable, and the item's contents follow with movements of their own.
import { test, expect, afterAll } from "bun:test";
import { partnerKit } from "../../../test/kit.ts";

const api = await partnerKit({ users: { ops: "admin" } });
afterAll(() => api.close());
const loc = async (name: string) => (await api.post("/locations", { name, kind: "room" })).body.id as string;
const a = await loc("A");
const b = await loc("B");
const asset = async (name: string) => (await api.post("/assets", { name, locationId: a, ownership: "owned" })).body;

test("correcting a container's location moves its contents with one moved movement each", async () => {
  const box = await asset("Box");
  const inner = await asset("Inner");
  expect((await api.post(`/items/${inner.id}/move`, { toContainerId: box.id })).status).toBe(200);
  const registered = (await api.get("/movements", { query: `itemId=${box.id}` })).body.items.at(-1);
  expect(registered.kind).toBe("registered");
  const fix = await api.post(`/movements/${registered.id}/correct`, { reason: "it was in B all along", locationId: b });
  expect(fix.status).toBe(201);
  expect(fix.body.data.appliedToItem).toBe(true);
  const innerNow = (await api.get(`/items/${inner.id}`)).body;
  expect(innerNow.locationId).toBe(b);
  const innerMoves = (await api.get("/movements", { query: `itemId=${inner.id}` })).body.items;
  expect(innerMoves[0]).toMatchObject({ kind: "moved", fromLocationId: a, toLocationId: b, data: { withContainerId: box.id, correctionOf: registered.id } });
});

test("a correction that would put the item into an archived location is refused and changes nothing", async () => {
  const gone = await loc("Gone");
  const item = await asset("Lamp");
  const registered = (await api.get("/movements", { query: `itemId=${item.id}` })).body.items.at(-1);
  const archived = await api.patch(`/locations/${gone}`, { expectedVersion: 1, status: "archived" });
  expect(archived.status).toBe(200);
  const r = await api.post(`/movements/${registered.id}/correct`, { reason: "typo", locationId: gone });
  expect(r.status).toBe(400);
  expect(r.body.errors[0].path).toBe("/body/locationId");
  expect((await api.get(`/items/${item.id}`)).body.locationId).toBe(a);
  expect((await api.get("/movements", { query: `itemId=${item.id}` })).body.total).toBe(1);
});
