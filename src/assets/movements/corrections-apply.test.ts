// A corrected location applied to the item behaves like a move: the place must be
// usable, and the item's contents follow with movements of their own.
import { test, expect, afterAll } from "bun:test";
import { createTestEnv } from "../../../test/harness.ts";

const env = await createTestEnv();
afterAll(() => env.close());
await env.provision("acme");
await env.member("acme", "ops", "admin");
const t = await env.token("ops");
const url = (p: string, q = "") => `/api/assets${p}?partnerId=acme${q ? `&${q}` : ""}`;
const post = (p: string, body: unknown) => env.call("POST", url(p), { token: t, body });
const loc = async (name: string) => (await post("/locations", { name, kind: "room" })).body.id as string;
const a = await loc("A");
const b = await loc("B");
const asset = async (name: string) => (await post("/assets", { name, locationId: a, ownership: "owned" })).body;

test("correcting a container's location moves its contents with one moved movement each", async () => {
  const box = await asset("Box");
  const inner = await asset("Inner");
  expect((await post(`/items/${inner.id}/move`, { toContainerId: box.id })).status).toBe(200);
  const registered = (await env.call("GET", url("/movements", `itemId=${box.id}`), { token: t })).body.items.at(-1);
  expect(registered.kind).toBe("registered");
  const fix = await post(`/movements/${registered.id}/correct`, { reason: "it was in B all along", locationId: b });
  expect(fix.status).toBe(201);
  expect(fix.body.data.appliedToItem).toBe(true);
  const innerNow = (await env.call("GET", url(`/items/${inner.id}`), { token: t })).body;
  expect(innerNow.locationId).toBe(b);
  const innerMoves = (await env.call("GET", url("/movements", `itemId=${inner.id}`), { token: t })).body.items;
  expect(innerMoves[0]).toMatchObject({ kind: "moved", fromLocationId: a, toLocationId: b, data: { withContainerId: box.id, correctionOf: registered.id } });
});

test("a correction that would put the item into an archived location is refused and changes nothing", async () => {
  const gone = await loc("Gone");
  const item = await asset("Lamp");
  const registered = (await env.call("GET", url("/movements", `itemId=${item.id}`), { token: t })).body.items.at(-1);
  const archived = await env.call("PATCH", url(`/locations/${gone}`), { token: t, body: { expectedVersion: 1, status: "archived" } });
  expect(archived.status).toBe(200);
  const r = await post(`/movements/${registered.id}/correct`, { reason: "typo", locationId: gone });
  expect(r.status).toBe(400);
  expect(r.body.errors[0].path).toBe("/body/locationId");
  expect((await env.call("GET", url(`/items/${item.id}`), { token: t })).body.locationId).toBe(a);
  expect((await env.call("GET", url("/movements", `itemId=${item.id}`), { token: t })).body.total).toBe(1);
});
