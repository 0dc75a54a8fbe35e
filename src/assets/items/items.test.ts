import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { createTestEnv, type TestEnv } from "../../../test/harness.ts";
import type { TenantTx } from "../../platform/tenancy/tenancy.ts";
import { agreements, catalogCategories, catalogModels, locations, parties } from "../master-data/master-data.tables.ts";
import { movements } from "../movements/movements.tables.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import { itemHistory, items } from "./items.tables.ts";
import { checkouts } from "../custody/custody.tables.ts";

const P = "acme";
const Q = `?partnerId=${P}`;
let env: TestEnv;
let op: string; // operator token
let viewer: string;
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

async function seed<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T> {
  const handle = await env.deps.tenancy.acquire(P);
  try {
    return await env.deps.tenancy.writeTx(handle, fn);
  } finally {
    env.deps.tenancy.release(handle);
  }
}

async function countRows(table: typeof movements | typeof itemHistory | typeof outbox, itemId?: string): Promise<number> {
  const handle = await env.deps.tenancy.acquire(P);
  try {
    const col = table === movements ? movements.itemId : table === itemHistory ? itemHistory.itemId : outbox.aggregateId;
    const rows = await handle.db.read.select({ n: count() }).from(table).where(itemId ? eq(col, itemId) : undefined);
    return rows[0]?.n ?? 0;
  } finally {
    env.deps.tenancy.release(handle);
  }
}

const meta = () => ({ createdAt: env.deps.clock.now().toISOString(), updatedAt: env.deps.clock.now().toISOString(), createdBy: "seed" });

beforeAll(async () => {
  env = await createTestEnv();
  await env.provision(P);
  await env.member(P, "olivia", "operator");
  await env.member(P, "victor", "viewer");
  op = await env.token("olivia");
  viewer = await env.token("victor");
  for (const k of Object.keys(ids) as Array<keyof typeof ids>) ids[k] = env.deps.newId();
  await seed(async (tx) => {
    await tx.insert(locations).values([
      { id: ids.site, name: "Main site", kind: "site", parentId: null, ...meta() },
      { id: ids.building, name: "Building A", kind: "building", parentId: ids.site, ...meta() },
      { id: ids.room, name: "Room 101", kind: "room", parentId: ids.building, ...meta() },
      { id: ids.bin, name: "Bin 7", kind: "bin", parentId: ids.room, ...meta() },
      { id: ids.archived, name: "Old shed", kind: "other", parentId: null, status: "archived", ...meta() },
    ]);
    await tx.insert(parties).values({ id: ids.party, name: "Lessor Ltd", kind: "organisation", ...meta() });
    await tx.insert(agreements).values([
      { id: ids.agreementExternal, kind: "lease", partyId: ids.party, startsOn: "2025-01-01", terms: "external", ...meta() },
      { id: ids.agreementOwned, kind: "warranty", partyId: ids.party, startsOn: "2025-01-01", terms: "owned", ...meta() },
    ]);
    await tx.insert(catalogCategories).values([
      { id: ids.category, name: "Laptops", ...meta() },
      { id: ids.otherCategory, name: "Chairs", ...meta() },
    ]);
    await tx.insert(catalogModels).values({ id: ids.model, name: "ThinkPad X1", categoryId: ids.category, ...meta() });
  });
});
afterAll(() => env.close());

function post(path: string, body: unknown, opts: { token?: string; idem?: string | false } = {}) {
  return env.call("POST", `/api/assets${path}${Q}`, { token: opts.token ?? op, body, idem: opts.idem });
}

async function register(body: Record<string, unknown> = {}) {
  const r = await post("/assets", { name: "Laptop", locationId: ids.room, ownership: "owned", ...body });
  expect(r.status).toBe(201);
  return r.body;
}

function expectInvalid(r: { status: number; body: { code: string; errors?: Array<{ path: string; message: string }> } }, path: string) {
  expect(r.status).toBe(400);
  expect(r.body.code).toBe("validation_failed");
  expect(r.body.errors?.map((e) => e.path)).toContain(path);
}

describe("register, activate, move, consume", () => {
  test("an asset is registered planned, with a movement, an outbox event and history", async () => {
    const r = await post("/assets", {
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
      availability: "available",
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

    const detail = await env.call("GET", `/api/assets/items/${item.id}${Q}`, { token: viewer });
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
    const a = await post(`/items/${item.id}/activate`, { reason: "commissioned" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ lifecycle: "active", availability: "available", version: 2 });
    // A step of the item's story: a movement where the item is, without an outbox event (not a contract §10 kind).
    expect(await countRows(movements, item.id)).toBe(2);
    expect(await countRows(outbox, item.id)).toBe(1);
    const detail = await env.call("GET", `/api/assets/items/${item.id}${Q}`, { token: viewer });
    expect(detail.body.latestMovements[0]).toMatchObject({
      kind: "activated",
      actorId: "olivia",
      reason: "commissioned",
      bizLocationId: item.locationId,
      readPointId: item.locationId,
      toLocationId: null,
      data: { from: "planned", to: "active" },
    });
    const again = await post(`/items/${item.id}/activate`, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("state_conflict");
    const noBody = await env.call("POST", `/api/assets/items/${env.deps.newId()}/activate${Q}`, { token: op });
    expect(noBody.status).toBe(404);
    const stale = await register();
    const s = await post(`/items/${stale.id}/activate`, { expectedVersion: 7 });
    expect(s.status).toBe(409);
    expect(s.body.code).toBe("version_conflict");
  });

  test("move to a location, into a container and out again; containers carry their contents", async () => {
    const item = await register({ name: "Projector" });
    const box = await register({ name: "Flight case" });
    const inner = await register({ name: "Cable" });

    const m = await post(`/items/${item.id}/move`, { toLocationId: ids.bin, reason: "stock-take" });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ locationId: ids.bin, containerId: null, version: 2 });
    const same = await post(`/items/${item.id}/move`, { toLocationId: ids.bin });
    expect(same.status).toBe(409);

    // Into the case (which is in the room): the projector takes the case's location.
    const packed = await post(`/items/${item.id}/move`, { toContainerId: box.id });
    expect(packed.status).toBe(200);
    expect(packed.body).toMatchObject({ locationId: ids.room, containerId: box.id });
    // A cable inside the projector: nesting two levels deep.
    expect((await post(`/items/${inner.id}/move`, { toContainerId: item.id })).status).toBe(200);

    // Cycles: the case into the projector (its content), the case into itself.
    const cycle = await post(`/items/${box.id}/move`, { toContainerId: inner.id });
    expect(cycle.status).toBe(409);
    expect(cycle.body.code).toBe("cycle_detected");
    const self = await post(`/items/${box.id}/move`, { toContainerId: box.id });
    expect(self.body.code).toBe("cycle_detected");

    // Moving the case carries the projector and the cable, each with its own movement.
    const before = await countRows(movements, inner.id);
    const carried = await post(`/items/${box.id}/move`, { toLocationId: ids.building });
    expect(carried.status).toBe(200);
    const detailInner = await env.call("GET", `/api/assets/items/${inner.id}${Q}`, { token: op });
    expect(detailInner.body).toMatchObject({ locationId: ids.building, containerId: item.id });
    expect(await countRows(movements, inner.id)).toBe(before + 1);
    expect(detailInner.body.latestMovements[0]).toMatchObject({
      kind: "moved",
      fromLocationId: ids.room,
      toLocationId: ids.building,
      data: { withContainerId: box.id },
    });
    const detailBox = await env.call("GET", `/api/assets/items/${box.id}${Q}`, { token: op });
    expect(detailBox.body.contents).toEqual([item.id]);
    expect(detailBox.body.locationPath.map((l: { id: string }) => l.id)).toEqual([ids.site, ids.building]);

    // Out of the case to a location clears the container.
    const out = await post(`/items/${item.id}/move`, { toLocationId: ids.building });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ locationId: ids.building, containerId: null });
    const detail = await env.call("GET", `/api/assets/items/${item.id}${Q}`, { token: op });
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
    expectInvalid(await post(`/items/${item.id}/move`, {}), "/body");
    expectInvalid(await post(`/items/${item.id}/move`, { toLocationId: ids.bin, toContainerId: item.id }), "/body");
    expectInvalid(await post(`/items/${item.id}/move`, { toLocationId: env.deps.newId() }), "/body/toLocationId");
    expectInvalid(await post(`/items/${item.id}/move`, { toLocationId: ids.archived }), "/body/toLocationId");
    expectInvalid(await post(`/items/${item.id}/move`, { toContainerId: env.deps.newId() }), "/body/toContainerId");
    // Checked out (an open checkout, even under a quality hold that outranks it in availability):
    // neither it nor anything into it moves here.
    const lent = await register({ name: "Lent case" });
    const now = new Date().toISOString();
    await seed(async (tx) => {
      await tx.insert(checkouts).values({
        id: env.deps.newId(), itemId: lent.id, state: "checked_out", holderKind: "user", holderId: "ops",
        startsAt: now, endsAt: null, dueAt: "2099-01-01T00:00:00.000Z", checkedOutAt: now, returnedAt: null,
        acknowledgedAt: null, acknowledgedBy: null, note: null, returnCondition: null, returnLocationId: null,
        version: 1, createdAt: now, updatedAt: now, createdBy: "ops",
      });
      await tx.update(items).set({ availability: "on_hold", qualityStatus: "quarantined" }).where(eq(items.id, lent.id));
    });
    const lentMove = await post(`/items/${lent.id}/move`, { toLocationId: ids.bin });
    expect(lentMove.status).toBe(409);
    expect(lentMove.body.detail).toContain("checked out");
    const intoLent = await post(`/items/${item.id}/move`, { toContainerId: lent.id });
    expect(intoLent.status).toBe(409);
    expect(intoLent.body.detail).toContain("nothing can be packed");
    const consumable = await register({ tracking: "quantity", quantity: 3 });
    expectInvalid(await post(`/items/${item.id}/move`, { toContainerId: consumable.id }), "/body/toContainerId");
    const missing = await post(`/items/${env.deps.newId()}/move`, { toLocationId: ids.bin });
    expect(missing.status).toBe(404);
    const stale = await post(`/items/${item.id}/move`, { toLocationId: ids.bin, expectedVersion: 9 });
    expect(stale.body.code).toBe("version_conflict");
  });

  test("a consumable is consumed down to zero and then is consumed", async () => {
    const c = await register({ name: "Batteries", tracking: "quantity", quantity: 10 });
    expect(c).toMatchObject({ tracking: "quantity", quantity: 10 });
    const early = await post(`/items/${c.id}/consume`, { quantity: 1 });
    expect(early.status).toBe(409); // still planned
    expect((await post(`/items/${c.id}/activate`, {})).status).toBe(200);

    const used = await post(`/items/${c.id}/consume`, { quantity: 4, reason: "event kit" });
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ quantity: 6, lifecycle: "active" });
    const tooMany = await post(`/items/${c.id}/consume`, { quantity: 7 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe("state_conflict");
    expectInvalid(await post(`/items/${c.id}/consume`, { quantity: 0 }), "/body/quantity");
    expectInvalid(await post(`/items/${c.id}/consume`, { quantity: -2 }), "/body/quantity");
    expectInvalid(await post(`/items/${c.id}/consume`, { quantity: 1.5 }), "/body/quantity");

    const rest = await post(`/items/${c.id}/consume`, { quantity: 6 });
    expect(rest.body).toMatchObject({ quantity: 0, lifecycle: "consumed" });
    expect((await post(`/items/${c.id}/consume`, { quantity: 1 })).status).toBe(409);
    expect((await post(`/items/${c.id}/move`, { toLocationId: ids.bin })).status).toBe(409);

    const detail = await env.call("GET", `/api/assets/items/${c.id}${Q}`, { token: op });
    expect(detail.body.latestMovements.map((m: { kind: string; quantity: number }) => [m.kind, m.quantity])).toEqual([
      ["consumed", 6],
      ["consumed", 4],
      ["activated", null],
      ["registered", 10],
    ]);

    const serialised = await register();
    await post(`/items/${serialised.id}/activate`, {});
    expect((await post(`/items/${serialised.id}/consume`, { quantity: 1 })).status).toBe(409);
  });
});

describe("GET /items/{id}", () => {
  test("custody shows the open checkout and upcoming reservations; movements show their correction links", async () => {
    const item = await register({ name: "Tent" });
    const now = env.deps.clock.now().getTime();
    const at = (h: number) => new Date(now + h * 3600_000).toISOString();
    const row = (id: string, state: "reserved" | "checked_out" | "returned", startsAt: string, endsAt: string | null) => ({
      id,
      itemId: item.id,
      state,
      holderKind: "party" as const,
      holderId: ids.party,
      startsAt,
      endsAt,
      dueAt: state === "checked_out" ? at(24) : null,
      checkedOutAt: state === "checked_out" ? at(-1) : null,
      createdAt: at(-2),
      updatedAt: at(-2),
      createdBy: "olivia",
    });
    const [open, next, later, past, done] = Array.from({ length: 5 }, () => env.deps.newId());
    await seed(async (tx) => {
      await tx.insert(checkouts).values([
        row(open!, "checked_out", at(-1), null),
        row(later!, "reserved", at(72), at(96)),
        row(next!, "reserved", at(48), at(50)),
        row(past!, "reserved", at(-10), at(-5)),
        row(done!, "returned", at(-30), null),
      ]);
    });
    const registered = (await env.call("GET", `/api/assets/items/${item.id}${Q}`, { token: viewer })).body.latestMovements[0];
    const correctionId = env.deps.newId();
    await seed((tx) =>
      tx.insert(movements).values({
        id: correctionId,
        itemId: item.id,
        kind: "corrected",
        eventTime: at(0),
        recordedAt: at(0),
        actorId: "olivia",
        correctsId: registered.id,
        reason: "wrong room",
        data: {},
      }),
    );
    const detail = await env.call("GET", `/api/assets/items/${item.id}${Q}`, { token: viewer });
    expect(detail.body.custody.current).toMatchObject({ id: open, state: "checked_out", holder: { kind: "party", id: ids.party }, overdue: false });
    expect(detail.body.custody.upcoming.map((c: { id: string }) => c.id)).toEqual([next, later]);
    expect(detail.body.latestMovements.map((m: { id: string; corrects: string | null; correctedBy: string | null }) => [m.id, m.corrects, m.correctedBy])).toEqual([
      [correctionId, registered.id, null],
      [registered.id, null, correctionId],
    ]);
  });
});

describe("bad input is 400 with the field path", () => {
  test("money: floats and too many decimals are refused, short amounts are padded", async () => {
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: 12.5, currency: "EUR" } }), "/body/acquisitionCost/amount");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: "12.345", currency: "EUR" } }), "/body/acquisitionCost/amount");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: "10.5", currency: "JPY" } }), "/body/acquisitionCost/amount");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquisitionCost: { amount: "10", currency: "XYZ" } }), "/body/acquisitionCost/currency");
    expect((await register({ acquisitionCost: { amount: "12.5", currency: "EUR" } })).acquisitionCost).toEqual({ amount: "12.50", currency: "EUR" });
    expect((await register({ acquisitionCost: { amount: "1500", currency: "JPY" } })).acquisitionCost).toEqual({ amount: "1500", currency: "JPY" });
  });

  test("quantities", async () => {
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", tracking: "quantity", quantity: -5 }), "/body/quantity");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", tracking: "quantity" }), "/body/quantity");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", quantity: 3 }), "/body/quantity");
    expect((await register({ quantity: 1 })).quantity).toBe(1);
  });

  test("references: unknown or archived location, owner party rules, agreement terms, model and category", async () => {
    expectInvalid(await post("/assets", { name: "x", locationId: env.deps.newId(), ownership: "owned" }), "/body/locationId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.archived, ownership: "owned" }), "/body/locationId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "external" }), "/body/ownerPartyId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", ownerPartyId: ids.party }), "/body/ownerPartyId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "external", ownerPartyId: env.deps.newId() }), "/body/ownerPartyId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", agreementId: ids.agreementExternal }), "/body/agreementId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", modelId: env.deps.newId() }), "/body/modelId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", categoryId: env.deps.newId() }), "/body/categoryId");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", modelId: ids.model, categoryId: ids.otherCategory }), "/body/categoryId");
    const loaned = await register({ ownership: "external", ownerPartyId: ids.party, agreementId: ids.agreementExternal });
    expect(loaned).toMatchObject({ ownership: "external", ownerPartyId: ids.party, agreementId: ids.agreementExternal });
    expect((await register({ agreementId: ids.agreementOwned })).agreementId).toBe(ids.agreementOwned);
  });

  test("strictness, dates, attributes and actor fields", async () => {
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", createdBy: "mallory" }), "/body/createdBy");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", lifecycle: "active" }), "/body/lifecycle");
    expectInvalid(await post("/assets", { name: "", locationId: ids.room, ownership: "owned" }), "/body/name");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "mine" }), "/body/ownership");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquiredOn: "2999-01-01" }), "/body/acquiredOn");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", acquiredOn: "2025-02-30" }), "/body/acquiredOn");
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: many }), "/body/attributes");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: { deep: { a: { b: { c: {} } } } } }), "/body/attributes/deep");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: { big: "x".repeat(17_000) } }), "/body/attributes");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: [1, 2] }), "/body/attributes");
    expectInvalid(await post("/assets", { name: "x", locationId: ids.room, ownership: "owned", attributes: JSON.parse('{"__proto__": {"x": 1}}') }), "/body/attributes/__proto__");
  });
});

describe("PATCH /items/{id}", () => {
  test("descriptive fields change with expectedVersion; commands' fields are refused", async () => {
    const item = await register({ serialNumber: "A-1" });
    const path = `/api/assets/items/${item.id}${Q}`;
    expectInvalid(await env.call("PATCH", path, { token: op, body: { name: "New" } }), "/body/expectedVersion");
    for (const key of ["lifecycle", "availability", "locationId", "containerId", "quantity", "ownership"]) {
      expectInvalid(await env.call("PATCH", path, { token: op, body: { expectedVersion: 1, [key]: "x" } }), `/body/${key}`);
    }
    const stale = await env.call("PATCH", path, { token: op, body: { expectedVersion: 5, name: "New" } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("version_conflict");

    const u = await env.call("PATCH", path, {
      token: op,
      body: { expectedVersion: 1, name: "Renamed", serialNumber: null, modelId: ids.model, attributes: { a: 1 }, acquisitionCost: { amount: "5", currency: "USD" } },
    });
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
    expectInvalid(await env.call("PATCH", path, { token: op, body: { expectedVersion: 2, categoryId: ids.otherCategory } }), "/body/categoryId");
    expectInvalid(await env.call("PATCH", path, { token: op, body: { expectedVersion: 2, ownerPartyId: ids.party } }), "/body/ownerPartyId");

    // Same values: nothing changes, not even the version.
    const same = await env.call("PATCH", path, { token: op, body: { expectedVersion: 2, name: "Renamed" } });
    expect(same.body.version).toBe(2);

    // Quarantine puts it on hold; releasing makes it available again.
    const q = await env.call("PATCH", path, { token: op, body: { expectedVersion: 2, qualityStatus: "quarantined" } });
    expect(q.body).toMatchObject({ qualityStatus: "quarantined", availability: "on_hold" });
    const r = await env.call("PATCH", path, { token: op, body: { expectedVersion: q.body.version, qualityStatus: "released" } });
    expect(r.body).toMatchObject({ qualityStatus: "released", availability: "available" });

    const detail = await env.call("GET", path, { token: op });
    expect(detail.body.history[0]).toMatchObject({ kind: "updated", data: { changes: { qualityStatus: { from: "quarantined", to: "released" } } } });
    expect((await env.call("PATCH", `/api/assets/items/${env.deps.newId()}${Q}`, { token: op, body: { expectedVersion: 1, name: "x" } })).status).toBe(404);
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
      const r = await env.call(method, `/api/assets${path}${Q}`, { token: op, body, idem: false });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("idempotency_key_required");
    }
  });

  test("a replay changes nothing", async () => {
    const body = { name: "Replayed", locationId: ids.room, ownership: "owned" };
    const first = await post("/assets", body, { idem: "create-once" });
    const again = await post("/assets", body, { idem: "create-once" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));

    const id = first.body.id as string;
    await post(`/items/${id}/activate`, {});
    const m1 = await post(`/items/${id}/move`, { toLocationId: ids.bin }, { idem: "move-once" });
    const moves = await countRows(movements, id);
    const m2 = await post(`/items/${id}/move`, { toLocationId: ids.bin }, { idem: "move-once" });
    expect(m2.status).toBe(200);
    expect(m2.body).toEqual(m1.body);
    expect(await countRows(movements, id)).toBe(moves);
    const reuse = await post(`/items/${id}/move`, { toLocationId: ids.room }, { idem: "move-once" });
    expect(reuse.body.code).toBe("idempotency_key_reuse");
  });

  test("viewers read but do not register", async () => {
    const r = await post("/assets", { name: "x", locationId: ids.room, ownership: "owned" }, { token: viewer });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("capability_denied");
    expect((await env.call("GET", `/api/assets/items/${env.deps.newId()}${Q}`, { token: viewer })).status).toBe(404);
    expect((await env.call("GET", `/api/assets/items/not-a-uuid${Q}`, { token: viewer })).status).toBe(400);
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
