import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, count, eq, inArray } from "drizzle-orm";
import { partnerKit } from "../../../test/kit.ts";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError } from "../../../test/contract/helpers.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import { EVENT_KINDS } from "../../platform/outbox/outbox.ts";
import { itemHistory, movements } from "../kernel/kernel.tables.ts";

const clock = new MutableClock();
const api = await partnerKit({ clock, users: { olivia: "operator", victor: "viewer", ada: "admin" } });
const env = api.env;
const P = api.partnerId;
afterAll(() => api.close());
const ids = {
  site: "",
  building: "",
  room: "",
  bin: "",
  archived: "",
  party: "",
  agreementExternal: "",
  agreementOwned: "",
  category: "",
  otherCategory: "",
  model: "",
};

function countRows(table: typeof movements | typeof itemHistory | typeof outbox, itemId?: string): Promise<number> {
  const col = table === movements ? movements.itemId : table === itemHistory ? itemHistory.itemId : outbox.aggregateId;
  // Outbox: the contract §10 (webhook) events; the live streams' own kinds (item.changed, …) are src/assets/events'.
  const kinds = table === outbox ? inArray(outbox.kind, [...EVENT_KINDS]) : undefined;
  return api.read(async (q) => (await q.select({ n: count() }).from(table).where(and(itemId ? eq(col, itemId) : undefined, kinds)))[0]?.n ?? 0);
}

beforeAll(async () => {
  // Master data as an admin creates it.
  const as = { as: "ada" };
  ids.site = (await api.seed.location({ name: "Main site", kind: "site" })).id;
  ids.building = (await api.seed.location({ name: "Building A", kind: "building", parentId: ids.site })).id;
  ids.room = (await api.seed.location({ name: "Room 101", kind: "room", parentId: ids.building })).id;
  ids.bin = (await api.seed.location({ name: "Bin 7", kind: "bin", parentId: ids.room })).id;
  const shed = await api.seed.call("post", "/locations", { name: "Old shed", kind: "other" }, as);
  ids.archived = (await api.seed.call("patch", `/locations/${shed.id}`, { expectedVersion: shed.version, status: "archived" }, as)).id;
  ids.party = (await api.seed.party({ name: "Lessor Ltd", kind: "organisation" })).id;
  ids.agreementExternal = (await api.seed.agreement({ kind: "lease", partyId: ids.party, startsOn: "2025-01-01", terms: "external" })).id;
  ids.agreementOwned = (await api.seed.agreement({ kind: "warranty", partyId: ids.party, startsOn: "2025-01-01", terms: "owned" })).id;
  ids.category = (await api.seed.category({ name: "Laptops" })).id;
  ids.otherCategory = (await api.seed.category({ name: "Chairs" })).id;
  ids.model = (await api.seed.model({ name: "ThinkPad X1", categoryId: ids.category })).id;
});

async function register(body: Record<string, unknown> = {}) {
  const r = await api.post("/assets", { name: "Laptop", locationId: ids.room, ownership: "owned", ...body });
  expect(r.status).toBe(201);
  return r.body;
}


describe("register, activate, move, consume", () => {
  test("an asset is registered planned, with a movement, an outbox event and history", async () => {
    const r = await api.post("/assets", {
      name: "  Laptop 1 ",
      locationId: ids.room,
      ownership: "owned",
      modelId: ids.model,
      serialNumber: "SN-1",
      acquisitionCost: { amount: "1200.5", currency: "EUR" },
      acquiredOn: "2025-03-01",
      attributes: { colour: "black", ram: 32, ports: ["usb-c", "hdmi"], dims: { w: 30, h: 2 } },
    });
    expect(r.status).toBe(201);
    const item = r.body;
    expect(r.headers.get("location")).toBe(`/api/assets/items/${item.id}?partnerId=${P}`);
    expect(item).toMatchObject({
      name: "Laptop 1",
      lifecycle: "planned",
      availability: "unavailable",
      tracking: "serialised",
      quantity: 1,
      condition: "good",
      qualityStatus: "released",
      categoryId: ids.category,
      acquisitionCost: { amount: "1200.50", currency: "EUR" },
      attributes: { colour: "black", ram: 32, ports: ["usb-c", "hdmi"], dims: { w: 30, h: 2 } },
      version: 1,
      createdBy: "olivia",
      containerId: null,
    });
    expect(await countRows(movements, item.id)).toBe(1);
    expect(await countRows(outbox, item.id)).toBe(1);
    expect(await countRows(itemHistory, item.id)).toBe(1);

    const detail = await api.as("victor").get(`/items/${item.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.locationPath.map((l: { name: string }) => l.name)).toEqual(["Main site", "Building A", "Room 101"]);
    expect(detail.body.latestMovements).toHaveLength(1);
    expect(detail.body.latestMovements[0]).toMatchObject({ kind: "registered", toLocationId: ids.room, actorId: "olivia", corrects: null });
    expect(detail.body.history[0]).toMatchObject({ kind: "registered", actorId: "olivia" });
    expect(detail.body.custody).toEqual({ current: null, upcoming: [] });
    expect(detail.body.identifiers).toEqual([]);
    expect(detail.body.contents).toEqual([]);
  });

  test("activate: planned → active once; the second is 409", async () => {
    const item = await register();
    const a = await api.post(`/items/${item.id}/activate`, { reason: "commissioned" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ lifecycle: "active", availability: "available", version: 2 });
    // A step of the item's story: a movement where the item is, without an outbox event (not a contract §10 kind).
    expect(await countRows(movements, item.id)).toBe(2);
    expect(await countRows(outbox, item.id)).toBe(1);
    const detail = await api.as("victor").get(`/items/${item.id}`);
    expect(detail.body.latestMovements[0]).toMatchObject({
      kind: "activated",
      actorId: "olivia",
      reason: "commissioned",
      bizLocationId: item.locationId,
      readPointId: item.locationId,
      toLocationId: null,
      data: { from: "planned", to: "active" },
    });
    const again = await api.post(`/items/${item.id}/activate`, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("state_conflict");
    const noBody = await api.post(`/items/${env.deps.newId()}/activate`, undefined);
    expect(noBody.status).toBe(404);
    const stale = await register();
    const s = await api.post(`/items/${stale.id}/activate`, { expectedVersion: 7 });
    expect(s.status).toBe(409);
    expect(s.body.code).toBe("version_conflict");
  });

  test("move to a location, into a container and out again; containers carry their contents", async () => {
    const item = await register({ name: "Projector" });
    const box = await register({ name: "Flight case" });
    const inner = await register({ name: "Cable" });

    const m = await api.post(`/items/${item.id}/move`, { toLocationId: ids.bin, reason: "stock-take" });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ locationId: ids.bin, containerId: null, version: 2 });
    const same = await api.post(`/items/${item.id}/move`, { toLocationId: ids.bin });
    expect(same.status).toBe(409);

    // Into the case (which is in the room): the projector takes the case's location.
    const packed = await api.post(`/items/${item.id}/move`, { toContainerId: box.id });
    expect(packed.status).toBe(200);
    expect(packed.body).toMatchObject({ locationId: ids.room, containerId: box.id });
    // A cable inside the projector: nesting two levels deep.
    expect((await api.post(`/items/${inner.id}/move`, { toContainerId: item.id })).status).toBe(200);

    // Cycles: the case into the projector (its content), the case into itself.
    const cycle = await api.post(`/items/${box.id}/move`, { toContainerId: inner.id });
    expect(cycle.status).toBe(409);
    expect(cycle.body.code).toBe("cycle_detected");
    const self = await api.post(`/items/${box.id}/move`, { toContainerId: box.id });
    expect(self.body.code).toBe("cycle_detected");

    // Moving the case carries the projector and the cable, each with its own movement.
    const before = await countRows(movements, inner.id);
    const carried = await api.post(`/items/${box.id}/move`, { toLocationId: ids.building });
    expect(carried.status).toBe(200);
    const detailInner = await api.get(`/items/${inner.id}`);
    expect(detailInner.body).toMatchObject({ locationId: ids.building, containerId: item.id });
    expect(await countRows(movements, inner.id)).toBe(before + 1);
    expect(detailInner.body.latestMovements[0]).toMatchObject({
      kind: "moved",
      fromLocationId: ids.room,
      toLocationId: ids.building,
      data: { withContainerId: box.id },
    });
    const detailBox = await api.get(`/items/${box.id}`);
    expect(detailBox.body.contents).toEqual([item.id]);
    expect(detailBox.body.locationPath.map((l: { id: string }) => l.id)).toEqual([ids.site, ids.building]);

    // Out of the case to a location clears the container.
    const out = await api.post(`/items/${item.id}/move`, { toLocationId: ids.building });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ locationId: ids.building, containerId: null });
    const detail = await api.get(`/items/${item.id}`);
    expect(detail.body.latestMovements[0]).toMatchObject({
      kind: "moved",
      fromContainerId: box.id,
      toContainerId: null,
      bizLocationId: ids.building,
    });
    expect(detail.body.contents).toEqual([inner.id]);
  });

  test("move input errors", async () => {
    const item = await register();
    expectFieldError(await api.post(`/items/${item.id}/move`, {}), "/body");
    expectFieldError(await api.post(`/items/${item.id}/move`, { toLocationId: ids.bin, toContainerId: item.id }), "/body");
    expectFieldError(await api.post(`/items/${item.id}/move`, { toLocationId: env.deps.newId() }), "/body/toLocationId");
    expectFieldError(await api.post(`/items/${item.id}/move`, { toLocationId: ids.archived }), "/body/toLocationId");
    expectFieldError(await api.post(`/items/${item.id}/move`, { toContainerId: env.deps.newId() }), "/body/toContainerId");
    // Checked out (an open checkout, even under a quality hold that outranks it in availability):
    // neither it nor anything into it moves here.
    const lent = await register({ name: "Lent case" });
    await api.seed.call("post", `/items/${lent.id}/activate`, {});
    await api.seed.checkout({ itemId: lent.id, holder: { kind: "user", id: "olivia" } });
    const onHold = await api.seed.call("patch", `/items/${lent.id}`, { expectedVersion: (await api.get(`/items/${lent.id}`)).body.version, qualityStatus: "quarantined" });
    expect(onHold.availability).toBe("on_hold");
    const lentMove = await api.post(`/items/${lent.id}/move`, { toLocationId: ids.bin });
    expect(lentMove.status).toBe(409);
    expect(lentMove.body.detail).toContain("checked out");
    const intoLent = await api.post(`/items/${item.id}/move`, { toContainerId: lent.id });
    expect(intoLent.status).toBe(409);
    expect(intoLent.body.detail).toContain("nothing can be packed");
    const consumable = await register({ tracking: "quantity", quantity: 3 });
    expectFieldError(await api.post(`/items/${item.id}/move`, { toContainerId: consumable.id }), "/body/toContainerId");
    const missing = await api.post(`/items/${env.deps.newId()}/move`, { toLocationId: ids.bin });
    expect(missing.status).toBe(404);
    const stale = await api.post(`/items/${item.id}/move`, { toLocationId: ids.bin, expectedVersion: 9 });
    expect(stale.body.code).toBe("version_conflict");
  });

  test("a consumable is consumed down to zero and then is consumed", async () => {
    const c = await register({ name: "Batteries", tracking: "quantity", quantity: 10 });
    expect(c).toMatchObject({ tracking: "quantity", quantity: 10 });
    const early = await api.post(`/items/${c.id}/consume`, { quantity: 1 });
    expect(early.status).toBe(409); // still planned
    expect((await api.post(`/items/${c.id}/activate`, {})).status).toBe(200);

    const used = await api.post(`/items/${c.id}/consume`, { quantity: 4, reason: "event kit" });
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ quantity: 6, lifecycle: "active" });
    const tooMany = await api.post(`/items/${c.id}/consume`, { quantity: 7 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe("state_conflict");
    expectFieldError(await api.post(`/items/${c.id}/consume`, { quantity: 0 }), "/body/quantity");
    expectFieldError(await api.post(`/items/${c.id}/consume`, { quantity: -2 }), "/body/quantity");
    expectFieldError(await api.post(`/items/${c.id}/consume`, { quantity: 1.5 }), "/body/quantity");

    const rest = await api.post(`/items/${c.id}/consume`, { quantity: 6 });
    expect(rest.body).toMatchObject({ quantity: 0, lifecycle: "consumed" });
    expect((await api.post(`/items/${c.id}/consume`, { quantity: 1 })).status).toBe(409);
    expect((await api.post(`/items/${c.id}/move`, { toLocationId: ids.bin })).status).toBe(409);

    const detail = await api.get(`/items/${c.id}`);
    expect(detail.body.latestMovements.map((m: { kind: string; quantity: number }) => [m.kind, m.quantity])).toEqual([
      ["consumed", 6],
      ["consumed", 4],
      ["activated", null],
      ["registered", 10],
    ]);

    const serialised = await register();
    await api.post(`/items/${serialised.id}/activate`, {});
    expect((await api.post(`/items/${serialised.id}/consume`, { quantity: 1 })).status).toBe(409);
  });
});

describe("GET /items/{id}", () => {
  test("custody shows the open checkout and upcoming reservations; movements show their correction links", async () => {
    const item = await register({ name: "Tent" });
    await api.post(`/items/${item.id}/activate`, {});
    const now = clock.now().getTime();
    const at = (h: number) => new Date(now + h * 3600_000).toISOString();
    const holder = { kind: "party", id: ids.party };
    // The story is told earlier on the clock: each record is created when it could have been.
    clock.current = new Date(now - 31 * 3600_000);
    const past = (await api.seed.reservation({ itemId: item.id, holder, startsAt: at(-10), endsAt: at(-5) })).id;
    const next = (await api.seed.reservation({ itemId: item.id, holder, startsAt: at(48), endsAt: at(50) })).id;
    const later = (await api.seed.reservation({ itemId: item.id, holder, startsAt: at(72), endsAt: at(96) })).id;
    clock.current = new Date(now - 30 * 3600_000);
    const done = await api.seed.checkout({ itemId: item.id, holder, dueAt: at(-20) });
    await api.seed.call("post", `/checkouts/${done.id}/return`, {});
    clock.current = new Date(now - 3600_000);
    const open = (await api.seed.checkout({ itemId: item.id, holder, dueAt: at(24) })).id;
    clock.current = new Date(now);
    expect(past).not.toBe(next);
    const registered = (await api.as("victor").get(`/items/${item.id}`)).body.latestMovements.find((m: { kind: string }) => m.kind === "registered");
    const correctionId = (await api.post(`/movements/${registered.id}/correct`, { reason: "wrong room", eventTime: at(-40) })).body.id;
    const detail = await api.as("victor").get(`/items/${item.id}`);
    expect(detail.body.custody.current).toMatchObject({ id: open, state: "checked_out", holder: { kind: "party", id: ids.party }, overdue: false });
    expect(detail.body.custody.upcoming.map((c: { id: string }) => c.id)).toEqual([next, later]);
    const linked = detail.body.latestMovements.filter((m: { id: string }) => m.id === correctionId || m.id === registered.id);
    expect(linked.map((m: { id: string; corrects: string | null; correctedBy: string | null }) => [m.id, m.corrects, m.correctedBy])).toEqual([
      [correctionId, registered.id, null],
      [registered.id, null, correctionId],
    ]);
  });
});

describe("bad input is 400 with the field path", () => {
  test("money: floats and too many decimals are refused, short amounts are padded", async () => {
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: 12.5, currency: "EUR" } }), "/body/acquisitionCost/amount");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: "12.345", currency: "EUR" } }), "/body/acquisitionCost/amount");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: "10.5", currency: "JPY" } }), "/body/acquisitionCost/amount");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: "10", currency: "XYZ" } }), "/body/acquisitionCost/currency");
    expect((await register({ acquisitionCost: { amount: "12.5", currency: "EUR" } })).acquisitionCost).toEqual({ amount: "12.50", currency: "EUR" });
    expect((await register({ acquisitionCost: { amount: "1500", currency: "JPY" } })).acquisitionCost).toEqual({ amount: "1500", currency: "JPY" });
  });

  test("quantities", async () => {
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", tracking: "quantity", quantity: -5 }), "/body/quantity");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", tracking: "quantity" }), "/body/quantity");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", quantity: 3 }), "/body/quantity");
    expect((await register({ quantity: 1 })).quantity).toBe(1);
  });

  test("references: unknown or archived location, owner party rules, agreement terms, model and category", async () => {
    expectFieldError(await api.post("/assets", { name: "x", locationId: env.deps.newId(), ownership: "owned" }), "/body/locationId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.archived, ownership: "owned" }), "/body/locationId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "external" }), "/body/ownerPartyId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", ownerPartyId: ids.party }), "/body/ownerPartyId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "external", ownerPartyId: env.deps.newId() }), "/body/ownerPartyId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", agreementId: ids.agreementExternal }), "/body/agreementId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", modelId: env.deps.newId() }), "/body/modelId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", categoryId: env.deps.newId() }), "/body/categoryId");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", modelId: ids.model, categoryId: ids.otherCategory }), "/body/categoryId");
    const loaned = await register({ ownership: "external", ownerPartyId: ids.party, agreementId: ids.agreementExternal });
    expect(loaned).toMatchObject({ ownership: "external", ownerPartyId: ids.party, agreementId: ids.agreementExternal });
    expect((await register({ agreementId: ids.agreementOwned })).agreementId).toBe(ids.agreementOwned);
  });

  test("strictness, dates, attributes and actor fields", async () => {
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", createdBy: "mallory" }), "/body/createdBy");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", lifecycle: "active" }), "/body/lifecycle");
    expectFieldError(await api.post("/assets", { name: "", locationId: ids.room, ownership: "owned" }), "/body/name");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "mine" }), "/body/ownership");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquiredOn: "2999-01-01" }), "/body/acquiredOn");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquiredOn: "2025-02-30" }), "/body/acquiredOn");
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: many }), "/body/attributes");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: { deep: { a: { b: { c: {} } } } } }), "/body/attributes/deep");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: { big: "x".repeat(17_000) } }), "/body/attributes");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: [1, 2] }), "/body/attributes");
    expectFieldError(await api.post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: JSON.parse('{"__proto__": {"x": 1}}') }), "/body/attributes/__proto__");
  });
});

describe("PATCH /items/{id}", () => {
  test("descriptive fields change with expectedVersion; commands' fields are refused", async () => {
    const item = await register({ serialNumber: "A-1" });
    const path = `/items/${item.id}`;
    expectFieldError(await api.patch(path, { name: "New" }), "/body/expectedVersion");
    for (const key of ["lifecycle", "availability", "locationId", "containerId", "quantity", "ownership"]) {
      expectFieldError(await api.patch(path, { expectedVersion: 1, [key]: "x" }), `/body/${key}`);
    }
    const stale = await api.patch(path, { expectedVersion: 5, name: "New" });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("version_conflict");

    const u = await api.patch(path, { expectedVersion: 1, name: "Renamed", serialNumber: null, modelId: ids.model, attributes: { a: 1 }, acquisitionCost: { amount: "5", currency: "USD" } });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({
      name: "Renamed",
      serialNumber: null,
      modelId: ids.model,
      categoryId: ids.category,
      attributes: { a: 1 },
      acquisitionCost: { amount: "5.00", currency: "USD" },
      version: 2,
    });
    expectFieldError(await api.patch(path, { expectedVersion: 2, categoryId: ids.otherCategory }), "/body/categoryId");
    expectFieldError(await api.patch(path, { expectedVersion: 2, ownerPartyId: ids.party }), "/body/ownerPartyId");

    // Same values: nothing changes, not even the version.
    const same = await api.patch(path, { expectedVersion: 2, name: "Renamed" });
    expect(same.body.version).toBe(2);

    // A planned item is unavailable whatever its quality; once active, quarantine puts it on hold and releasing makes it available again.
    const q = await api.patch(path, { expectedVersion: 2, qualityStatus: "quarantined" });
    expect(q.body).toMatchObject({ qualityStatus: "quarantined", availability: "unavailable" });
    const a = await api.post(`${path}/activate`, {});
    expect(a.body).toMatchObject({ lifecycle: "active", qualityStatus: "quarantined", availability: "on_hold" });
    const r = await api.patch(path, { expectedVersion: a.body.version, qualityStatus: "released" });
    expect(r.body).toMatchObject({ qualityStatus: "released", availability: "available" });

    const detail = await api.get(path);
    expect(detail.body.history[0]).toMatchObject({ kind: "updated", data: { changes: { qualityStatus: { from: "quarantined", to: "released" } } } });
    expect((await api.patch(`/items/${env.deps.newId()}`, { expectedVersion: 1, name: "x" })).status).toBe(404);
  });
});

describe("idempotency and capabilities", () => {
  test("every mutation needs an Idempotency-Key", async () => {
    const item = await register();
    const calls: Array<[string, string, unknown]> = [
      ["POST", "/assets", { name: "x", locationId: ids.room, ownership: "owned" }],
      ["PATCH", `/items/${item.id}`, { expectedVersion: 1, name: "y" }],
      ["POST", `/items/${item.id}/activate`, {}],
      ["POST", `/items/${item.id}/move`, { toLocationId: ids.bin }],
      ["POST", `/items/${item.id}/consume`, { quantity: 1 }],
    ];
    for (const [method, path, body] of calls) {
      const r = await api.request(method, path, body, { idem: false });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("idempotency_key_required");
    }
  });

  test("a replay changes nothing", async () => {
    const body = { name: "Replayed", locationId: ids.room, ownership: "owned" };
    const first = await api.post("/assets", body, { idem: "create-once" });
    const again = await api.post("/assets", body, { idem: "create-once" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));

    const id = first.body.id as string;
    await api.post(`/items/${id}/activate`, {});
    const m1 = await api.post(`/items/${id}/move`, { toLocationId: ids.bin }, { idem: "move-once" });
    const moves = await countRows(movements, id);
    const m2 = await api.post(`/items/${id}/move`, { toLocationId: ids.bin }, { idem: "move-once" });
    expect(m2.status).toBe(200);
    expect(m2.body).toEqual(m1.body);
    expect(await countRows(movements, id)).toBe(moves);
    const reuse = await api.post(`/items/${id}/move`, { toLocationId: ids.room }, { idem: "move-once" });
    expect(reuse.body.code).toBe("idempotency_key_reuse");
  });

  test("viewers read but do not register", async () => {
    const r = await api.as("victor").post("/assets", { name: "x", locationId: ids.room, ownership: "owned" });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("capability_denied");
    expect((await api.as("victor").get(`/items/${env.deps.newId()}`)).status).toBe(404);
    expect((await api.as("victor").get("/items/not-a-uuid")).status).toBe(400);
  });

  test("the routes are in the OpenAPI document with their schemas", async () => {
    const doc = await env.call("GET", "/api/assets/openapi.json");
    expect(doc.status).toBe(200);
    const paths = doc.body.paths;
    expect(paths["/assets"].post.operationId).toBe("createAsset");
    expect(paths["/items/{id}"].get.operationId).toBe("getItem");
    expect(paths["/items/{id}"].patch.operationId).toBe("updateItem");
    expect(paths["/items/{id}/move"].post.operationId).toBe("moveItem");
    for (const name of ["CreateAsset", "UpdateItem", "MoveItem", "ConsumeItem", "ItemDetail", "Item", "ItemCustody"]) {
      expect(doc.body.components.schemas[name]).toBeDefined();
    }
  });
});
