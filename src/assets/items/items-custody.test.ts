// Item commands respect custody however availability ranks it, and each request
// gives the item exactly one new version.
import { test, expect, afterAll } from "bun:test";
import { partnerKit } from "../../../test/kit.ts";

const api = await partnerKit({ users: { ops: "admin" } });
afterAll(() => api.close());
const site = (await api.seed.location({ name: "Site", kind: "site" })).id as string;
const store = (await api.seed.location({ name: "Store", kind: "room", parentId: site })).id as string;
const due = new Date(Date.now() + 86_400_000).toISOString();
const activeItem = (extra: Record<string, unknown> = {}) => api.seed.activeAsset({ name: "Thing", locationId: site, ...extra });

test("a checked-out item under a quality hold still cannot be moved or packed", async () => {
  const item = await activeItem();
  const box = await activeItem({ name: "Box" });
  expect((await api.post("/checkouts", { itemId: item.id, holder: { kind: "user", id: "ops" }, dueAt: due })).status).toBe(201);
  const before = (await api.get(`/items/${item.id}`)).body;
  const held = await api.patch(`/items/${item.id}`, { expectedVersion: before.version, qualityStatus: "quarantined" });
  expect(held.status).toBe(200);
  expect(held.body.availability).toBe("on_hold");
  // One request, one version, although availability changed too.
  expect(held.body.version).toBe(before.version + 1);
  const move = await api.post(`/items/${item.id}/move`, { toLocationId: store });
  expect(move.status).toBe(409);
  expect(move.body.detail).toContain("checked out");
  expect((await api.post(`/items/${item.id}/move`, { toContainerId: box.id })).status).toBe(409);
  const after = (await api.get(`/items/${item.id}`)).body;
  expect(after.locationId).toBe(site);
  expect(after.containerId).toBeNull();
});

test("stock that is checked out is returned before it is consumed", async () => {
  const stock = await activeItem({ name: "Cable", tracking: "quantity", quantity: 10 });
  const co = await api.post("/checkouts", { itemId: stock.id, holder: { kind: "user", id: "ops" }, dueAt: due });
  expect(co.status).toBe(201);
  const used = await api.post(`/items/${stock.id}/consume`, { quantity: 3 });
  expect(used.status).toBe(409);
  expect((await api.get(`/items/${stock.id}`)).body.quantity).toBe(10);
  expect((await api.post(`/checkouts/${co.body.id}/return`, {})).status).toBe(200);
  const ok = await api.post(`/items/${stock.id}/consume`, { quantity: 3 });
  expect(ok.status).toBe(200);
  expect(ok.body.quantity).toBe(7);
});

test("activation and consumption to zero give the item one version each", async () => {
  const created = (await api.post("/assets", { name: "Glue", locationId: site, ownership: "owned", tracking: "quantity", quantity: 2 })).body;
  const active = (await api.post(`/items/${created.id}/activate`, {})).body;
  expect(active.version).toBe(created.version + 1);
  const gone = (await api.post(`/items/${created.id}/consume`, { quantity: 2 })).body;
  expect(gone.lifecycle).toBe("consumed");
  expect(gone.version).toBe(active.version + 1);
});

test("an externally owned item's agreement must be with its owner", async () => {
  const lessor = (await api.post("/parties", { name: "Lessor Ltd", kind: "organisation" })).body.id as string;
  const stranger = (await api.post("/parties", { name: "Someone Else", kind: "organisation" })).body.id as string;
  const lease = (await api.post("/agreements", { kind: "lease", partyId: lessor, startsOn: "2026-01-01" })).body.id as string;
  const base = { name: "Leased printer", locationId: site, ownership: "external", agreementId: lease };
  const wrong = await api.post("/assets", { ...base, ownerPartyId: stranger });
  expect(wrong.status).toBe(400);
  expect(wrong.body.errors[0].path).toBe("/body/agreementId");
  expect((await api.post("/assets", { ...base, ownerPartyId: lessor })).status).toBe(201);
});
