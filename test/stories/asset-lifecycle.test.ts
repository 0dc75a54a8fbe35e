// Issue 3's story, end to end through the HTTP API: master data, registration,
// identity, custody and the movement chronology, with the failures along the way.
import { describe, test, expect, afterAll } from "bun:test";
import { createTestEnv, MutableClock } from "../harness.ts";
import { outbox } from "../../src/platform/outbox/outbox.tables.ts";
import { EVENT_KINDS } from "../../src/platform/outbox/outbox.ts";

const clock = new MutableClock(new Date("2026-11-23T08:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

const P = "story";
await env.provision(P);
await env.member(P, "olivia", "admin", "Olivia Admin");
await env.member(P, "bob", "operator", "Bob Operator");
await env.member(P, "carol", "operator", "Carol Operator");
const as = async (user: string) => env.token(user);
const at = (days: number, hours = 0) => new Date(clock.current.getTime() + days * 86_400_000 + hours * 3_600_000).toISOString();
const url = (path: string, query = "") => `/api/assets${path}?partnerId=${P}${query ? `&${query}` : ""}`;
const tick = () => clock.advance(60_000);

describe("an asset's life", () => {
  const ids: Record<string, string> = {};

  test("an admin sets up a location tree and a model", async () => {
    const t = await as("olivia");
    const site = await env.call("POST", url("/locations"), { token: t, body: { name: "Main site", kind: "site", code: "MAIN" } });
    expect(site.status).toBe(201);
    const room = await env.call("POST", url("/locations"), { token: t, body: { name: "Store room", kind: "room", parentId: site.body.id } });
    const bin = await env.call("POST", url("/locations"), { token: t, body: { name: "Bin 7", kind: "bin", parentId: room.body.id } });
    const cat = await env.call("POST", url("/catalog/categories"), { token: t, body: { name: "Laptops", code: "LAP" } });
    const model = await env.call("POST", url("/catalog/models"), { token: t, body: { name: "ThinkPad X1", categoryId: cat.body.id, manufacturer: "Lenovo" } });
    expect([room.status, bin.status, cat.status, model.status]).toEqual([201, 201, 201, 201]);
    Object.assign(ids, { site: site.body.id, room: room.body.id, bin: bin.body.id, category: cat.body.id, model: model.body.id });
  });

  test("an operator registers the asset; bad input is refused with field paths and changes nothing", async () => {
    const t = await as("bob");
    const base = { name: "Laptop 42", locationId: ids.bin, ownership: "owned", modelId: ids.model, serialNumber: "SN-42" };
    const bad = [
      [{ ...base, locationId: Bun.randomUUIDv7() }, "/body/locationId"],
      [{ ...base, acquisitionCost: { amount: 1299.5, currency: "EUR" } }, "/body/acquisitionCost/amount"],
      [{ ...base, acquisitionCost: { amount: "1299.505", currency: "EUR" } }, "/body/acquisitionCost/amount"],
      [{ ...base, tracking: "quantity", quantity: -3 }, "/body/quantity"],
      [{ ...base, createdBy: "mallory" }, "/body/createdBy"],
    ] as const;
    for (const [body, path] of bad) {
      const r = await env.call("POST", url("/assets"), { token: t, body });
      expect(r.status).toBe(400);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const noKey = await env.call("POST", url("/assets"), { token: t, body: base, idem: false });
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe("idempotency_key_required");
    const summaryBefore = await env.call("GET", url("/summary"), { token: t });
    expect(summaryBefore.body.totalItems).toBe(0);

    const created = await env.call("POST", url("/assets"), {
      token: t,
      idem: "register-42",
      body: { ...base, acquisitionCost: { amount: "1299.5", currency: "EUR" }, acquiredOn: "2026-11-01" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toContain(`/api/assets/items/${created.body.id}`);
    expect(created.body).toMatchObject({ lifecycle: "planned", categoryId: ids.category, acquisitionCost: { amount: "1299.50", currency: "EUR" } });
    ids.item = created.body.id;

    const replay = await env.call("POST", url("/assets"), {
      token: t,
      idem: "register-42",
      body: { ...base, acquisitionCost: { amount: "1299.5", currency: "EUR" }, acquiredOn: "2026-11-01" },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(created.body);
    expect((await env.call("GET", url("/summary"), { token: t })).body.totalItems).toBe(1);
  });

  test("it is activated, tagged with a GIAI and found again by scanning its Digital Link", async () => {
    const t = await as("bob");
    tick();
    expect((await env.call("POST", url(`/items/${ids.item}/activate`), { token: t, body: {} })).body.lifecycle).toBe("active");
    const wrongCheck = await env.call("POST", url("/identifiers/issue"), {
      token: t,
      body: { itemId: ids.item, scheme: "gs1_sgtin", value: "(01)09506000134353(21)A1" },
    });
    expect(wrongCheck.status).toBe(400);
    expect(wrongCheck.body.errors[0].path).toBe("/body/value");
    tick();
    const tag = await env.call("POST", url("/identifiers/issue"), { token: t, body: { itemId: ids.item, scheme: "gs1_giai", value: "061414112345" } });
    expect(tag.status).toBe(201);
    expect(tag.body).toMatchObject({ value: "(8004)061414112345", state: "issued" });
    ids.identifier = tag.body.id;
    const dup = await env.call("POST", url("/identifiers/issue"), {
      token: t,
      body: { itemId: ids.item, scheme: "gs1_giai", value: "https://id.gs1.org/8004/061414112345" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("duplicate");
    await env.call("POST", url(`/identifiers/${tag.body.id}/transition`), { token: t, body: { to: "active" } });

    const scan = await env.call("POST", url("/scan/resolve"), { token: t, body: { raw: "https://id.gs1.org/8004/061414112345" }, idem: false });
    expect(scan.status).toBe(200);
    expect(scan.body.item.id).toBe(ids.item);
    expect(scan.body.identifier.state).toBe("active");
    expect(scan.body.custody).toBeNull();
  });

  test("it is reserved for next week; an overlapping reservation is 409", async () => {
    const t = await as("bob");
    tick();
    const r = await env.call("POST", url("/reservations"), {
      token: t,
      body: { itemId: ids.item, holder: { kind: "user", id: "carol" }, startsAt: at(7), endsAt: at(9) },
    });
    expect(r.status).toBe(201);
    expect(r.body.state).toBe("reserved");
    ids.reservation = r.body.id;
    const overlap = await env.call("POST", url("/reservations"), {
      token: t,
      body: { itemId: ids.item, holder: { kind: "user", id: "bob" }, startsAt: at(8), endsAt: at(10) },
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe("state_conflict");
  });

  test("it is checked out, acknowledged by the holder only, extended, transferred and returned worse", async () => {
    const t = await as("bob");
    tick();
    const past = await env.call("POST", url("/checkouts"), { token: t, body: { itemId: ids.item, holder: { kind: "user", id: "bob" }, dueAt: at(-1) } });
    expect(past.status).toBe(400);
    expect(past.body.errors[0].path).toBe("/body/dueAt");

    const co = await env.call("POST", url("/checkouts"), {
      token: t,
      body: { itemId: ids.item, holder: { kind: "user", id: "bob" }, dueAt: at(2), note: "site visit" },
    });
    expect(co.status).toBe(201);
    expect(co.body.state).toBe("checked_out");
    ids.checkout = co.body.id;
    ids.firstDue = co.body.dueAt;

    tick();
    const notHolder = await env.call("POST", url(`/checkouts/${ids.checkout}/acknowledge`), { token: await as("carol"), body: {} });
    expect(notHolder.status).toBe(403);
    expect(notHolder.body.code).toBe("not_holder");
    const ack = await env.call("POST", url(`/checkouts/${ids.checkout}/acknowledge`), { token: t, body: {} });
    expect(ack.status).toBe(200);
    expect(ack.body.acknowledgedBy).toBe("bob");

    tick();
    const collide = await env.call("POST", url(`/checkouts/${ids.checkout}/extend`), { token: t, body: { dueAt: at(8), reason: "more work" } });
    expect(collide.status).toBe(409);
    const ext = await env.call("POST", url(`/checkouts/${ids.checkout}/extend`), { token: t, body: { dueAt: at(4), reason: "more work" } });
    expect(ext.status).toBe(200);
    expect(ext.body.dueAt).toBe(at(4));
    ids.extendedDue = ext.body.dueAt;

    tick();
    const tr = await env.call("POST", url(`/checkouts/${ids.checkout}/transfer`), {
      token: t,
      body: { holder: { kind: "user", id: "carol" }, reason: "handover" },
    });
    expect(tr.status).toBe(200);
    expect(tr.body.holder).toEqual({ kind: "user", id: "carol" });
    expect(tr.body.acknowledgedAt).toBeNull();

    tick();
    const ret = await env.call("POST", url(`/checkouts/${ids.checkout}/return`), {
      token: await as("carol"),
      body: { condition: "poor", locationId: ids.room, note: "dented lid" },
    });
    expect(ret.status).toBe(200);
    expect(ret.body.state).toBe("returned");
    const item = await env.call("GET", url(`/items/${ids.item}`), { token: t });
    // Next week's reservation does not make it unavailable today; the detail shows it as upcoming.
    expect(item.body).toMatchObject({ condition: "poor", locationId: ids.room, availability: "available" });
    expect(JSON.stringify(item.body.custody)).toContain(ids.reservation!);
  });

  test("/owned finds it by each filter", async () => {
    const t = await as("olivia");
    const queries = [
      "q=Laptop",
      "q=061414112345",
      "lifecycle=active",
      "condition=poor,broken",
      "qualityStatus=released",
      `categoryId=${ids.category}`,
      `locationId=${ids.room}`,
      "availability=available",
    ];
    for (const q of queries) {
      const r = await env.call("GET", url("/owned", q), { token: t });
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(1);
      expect(r.body.items[0].id).toBe(ids.item);
    }
    const miss = await env.call("GET", url("/owned", "condition=new"), { token: t });
    expect(miss.body.total).toBe(0);
    expect(miss.body.filters).toEqual({ condition: ["new"] });
    expect((await env.call("GET", url("/loaned"), { token: t })).body.total).toBe(0);
  });

  test("/movements shows each step in order with the actor from the token; a correction appends", async () => {
    const t = await as("olivia");
    const r = await env.call("GET", url("/movements", `itemId=${ids.item}`), { token: t });
    expect(r.status).toBe(200);
    const chronological = [...r.body.items].reverse();
    expect(chronological.map((m: { kind: string }) => m.kind)).toEqual([
      "registered",
      "activated",
      "tagged",
      "reserved",
      "checked_out",
      "acknowledged",
      "extended",
      "transferred",
      "returned",
    ]);
    // Bob did everything but the return; Carol returned it. Holders are facts of the step, not its actor.
    expect(chronological.map((m: { actorId: string }) => m.actorId)).toEqual(["bob", "bob", "bob", "bob", "bob", "bob", "bob", "bob", "carol"]);
    for (let i = 1; i < chronological.length; i++) expect(chronological[i].recordedAt > chronological[i - 1].recordedAt).toBe(true);
    const [, activated, tagged, reserved, checkedOut, acknowledged, extended] = chronological;
    // Steps that do not move it are observed where it was: the bin.
    for (const m of [activated, tagged, reserved, checkedOut, acknowledged, extended]) {
      expect(m).toMatchObject({ bizLocationId: ids.bin, readPointId: ids.bin, toLocationId: null });
    }
    expect(tagged.data).toEqual({ identifierId: ids.identifier, scheme: "gs1_giai", value: "(8004)061414112345" });
    expect(reserved).toMatchObject({ holder: { kind: "user", id: "carol" }, checkoutId: ids.reservation, data: { startsAt: expect.any(String), endsAt: expect.any(String) } });
    expect(acknowledged).toMatchObject({ holder: { kind: "user", id: "bob" }, checkoutId: ids.checkout });
    expect(extended).toMatchObject({ reason: "more work", checkoutId: ids.checkout, data: { fromDueAt: ids.firstDue, toDueAt: ids.extendedDue } });
    expect(checkedOut.data.dueAt).toBe(ids.firstDue);

    const returned = chronological[8];
    tick();
    const fix = await env.call("POST", url(`/movements/${returned.id}/correct`), {
      token: await as("bob"),
      body: { reason: "it went to the bin, not the room", locationId: ids.bin },
    });
    expect(fix.status).toBe(201);
    expect(fix.body).toMatchObject({ kind: "corrected", corrects: returned.id, actorId: "bob", data: { appliedToItem: true } });
    const after = await env.call("GET", url("/movements", `itemId=${ids.item}`), { token: t });
    expect(after.body.total).toBe(10);
    expect(after.body.items[0].id).toBe(fix.body.id);
    const original = after.body.items.find((m: { id: string }) => m.id === returned.id);
    expect(original).toMatchObject({ kind: "returned", toLocationId: ids.room, correctedBy: fix.body.id });
    const again = await env.call("POST", url(`/movements/${returned.id}/correct`), { token: await as("bob"), body: { reason: "again", locationId: ids.site } });
    expect(again.status).toBe(409);
  });

  test("only the contract's kinds wrote an outbox event, one each, in their transaction", async () => {
    const h = await env.deps.tenancy.acquire(P);
    try {
      const all = await h.db.read.select().from(outbox).orderBy(outbox.createdAt, outbox.id);
      // The webhook (contract §10) kinds; beside them only the live streams' own kind for the item's
      // lifecycle and availability changes (README "Live events"), which no webhook receives.
      const rows = all.filter((r) => (EVENT_KINDS as readonly string[]).includes(r.kind));
      expect(new Set(all.filter((r) => !rows.includes(r)).map((r) => r.kind))).toEqual(new Set(["item.changed"]));
      expect(rows.map((r) => r.kind)).toEqual([
        "asset.created",
        "custody.checked_out",
        "custody.transferred",
        "custody.returned",
        "movement.corrected",
      ]);
      for (const r of rows) expect(r.payload).toMatchObject({ type: r.kind, partnerId: P, data: { movement: { itemId: ids.item } } });
      // Each names its own movement: registered, checked_out, transferred, returned, corrected; the other steps have none.
      const kinds = rows.map((r) => (r.payload as { data: { movement: { kind: string } } }).data.movement.kind);
      expect(kinds).toEqual(["registered", "checked_out", "transferred", "returned", "corrected"]);
    } finally {
      env.deps.tenancy.release(h);
    }
  });
});
