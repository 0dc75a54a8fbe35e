// Quality holds: holding items makes them on_hold through the kernel's `hold`
// block, with a movement each; resolving frees them (release) or keeps them out of
// use as rejected (scrap, return) without the hub touching their lifecycle.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { inArray } from "drizzle-orm";
import { outbox } from "../../../platform/outbox/outbox.tables.ts";
import { EVENT_KINDS } from "../../../platform/outbox/outbox.ts";

const clock = new MutableClock(new Date("2026-06-05T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-holds", users: { ada: "admin", otto: "operator", vic: "viewer" }, tickMs: 1000 });
afterAll(() => api.close());

let qa = "";
beforeAll(async () => {
  qa = (await api.seed.location({ name: "QA cage", kind: "room" })).id;
});

const item = async (id: string) => (await api.get(`/items/${id}`)).body;
const kinds = async (itemId: string) => ((await api.get("/movements", { query: { itemId } })).body.items as Array<{ kind: string }>).map((m) => m.kind);

describe("a quality hold", () => {
  test("puts items on_hold with a `held` movement each, and releasing restores their availability", async () => {
    const a = await api.seed.activeAsset({ name: "Scanner A", locationId: qa });
    const b = await api.seed.activeAsset({ name: "Scanner B", locationId: qa });
    // The contract §10 (webhook) events; the live streams' own kinds (item.changed, …) are src/assets/events'.
    const webhookEvents = () => api.read((q) => q.select().from(outbox).where(inArray(outbox.kind, [...EVENT_KINDS])));
    const events = (await webhookEvents()).length;

    const res = await api.as("otto").post("/hub/quality-holds", { itemIds: [a.id, b.id], reason: "Firmware recall 2026-14", kind: "recall", reference: "RC-14" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const hold = res.body;
    expect(res.headers.get("location")).toBe(`/api/assets/hub/records/${hold.id}?partnerId=hub-holds`);
    expect(hold).toMatchObject({ status: "active", kind: "recall", reference: "RC-14", itemIds: [a.id, b.id], placedAt: clock.current.toISOString(), resolution: null, createdBy: "otto" });
    for (const id of [a.id, b.id]) {
      expect(await item(id)).toMatchObject({ availability: "on_hold", qualityStatus: "released", lifecycle: "active" });
      const [held] = (await api.get("/movements", { query: { itemId: id } })).body.items;
      expect(held).toMatchObject({ kind: "held", actorId: "otto", bizLocationId: qa, reason: "Firmware recall 2026-14", data: { holdId: hold.id, holdKind: "recall" } });
    }
    // Chronology only: holds publish no domain event (contract §10).
    expect((await webhookEvents()).length).toBe(events);
    // A held item does not leave on a checkout.
    expectProblem(await api.post("/checkouts", { itemId: a.id, holder: { kind: "user", id: "ada" }, dueAt: "2026-06-10T00:00:00Z" }), 409, "state_conflict");

    const released = await api.post(`/hub/quality-holds/${hold.id}/resolve`, { resolution: "release", note: "Firmware updated", expectedVersion: 1 });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body).toMatchObject({ status: "resolved", resolution: "release", resolutionNote: "Firmware updated", resolvedBy: "ada", resolvedAt: clock.current.toISOString(), version: 2 });
    for (const id of [a.id, b.id]) {
      expect(await item(id)).toMatchObject({ availability: "available", qualityStatus: "released" });
      expect((await kinds(id)).slice(0, 2)).toEqual(["hold_released", "held"]);
    }
    expect((await api.get("/movements", { query: { itemId: a.id } })).body.items[0]).toMatchObject({ reason: "Firmware updated", data: { holdId: hold.id, resolution: "release" } });
    expect((await api.post("/checkouts", { itemId: a.id, holder: { kind: "user", id: "ada" }, dueAt: "2026-06-10T00:00:00Z" })).status).toBe(201);

    // Resolved once: a second resolution names the state.
    const again = await api.post(`/hub/quality-holds/${hold.id}/resolve`, { resolution: "scrap" });
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("resolved");
    expect(again.body.currentState).toBe("resolved");
  });

  test("an item on two holds stays on_hold until the last is resolved", async () => {
    const x = await api.seed.activeAsset({ locationId: qa });
    const first = await api.create("/hub/quality-holds", { itemIds: [x.id], reason: "Scratched", kind: "damage" });
    const second = await api.create("/hub/quality-holds", { itemIds: [x.id], reason: "Missing certificate", kind: "documentation" });
    await api.post(`/hub/quality-holds/${first.id}/resolve`, { resolution: "release" });
    expect((await item(x.id)).availability).toBe("on_hold");
    await api.post(`/hub/quality-holds/${second.id}/resolve`, { resolution: "release" });
    expect((await item(x.id)).availability).toBe("available");
  });

  test("scrap and return end the hold but leave the items rejected and on_hold; the lifecycle is not the hub's to change", async () => {
    for (const resolution of ["scrap", "return"] as const) {
      const x = await api.seed.activeAsset({ locationId: qa });
      const hold = await api.create("/hub/quality-holds", { itemIds: [x.id], reason: "Cracked housing", kind: "inspection" });
      const res = await api.post(`/hub/quality-holds/${hold.id}/resolve`, { resolution });
      expect(res.body).toMatchObject({ status: "resolved", resolution, resolutionNote: null });
      const after = await item(x.id);
      expect(after).toMatchObject({ lifecycle: "active", qualityStatus: "rejected", availability: "on_hold" });
      // One item version per resolution: block cleared and status set in one write.
      expect(after.version).toBe(4);
      expect((await api.get("/movements", { query: { itemId: x.id } })).body.items[0]).toMatchObject({ kind: "hold_released", data: { resolution } });
    }
  });

  test("the whole hold is one transaction: a disposed item refuses it and no other item is held", async () => {
    const ok = await api.seed.activeAsset({ locationId: qa });
    const used = await api.seed.activeAsset({ locationId: qa, tracking: "quantity", quantity: 2 });
    await api.post(`/items/${used.id}/consume`, { quantity: 2 });
    const res = await api.post("/hub/quality-holds", { itemIds: [ok.id, used.id], reason: "Batch check", kind: "inspection" });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toContain(used.id);
    expect((await item(ok.id)).availability).toBe("available");
    expect(await kinds(ok.id)).not.toContain("held");
  });

  test("repeated, unknown or too many items are 400 at their path; a viewer cannot hold", async () => {
    const x = await api.seed.activeAsset({ locationId: qa });
    expectFieldError(await api.post("/hub/quality-holds", { itemIds: [x.id, x.id], reason: "r", kind: "damage" }), "/body/itemIds/1");
    expectFieldError(await api.post("/hub/quality-holds", { itemIds: [x.id, Bun.randomUUIDv7()], reason: "r", kind: "damage" }), "/body/itemIds/1");
    expectFieldError(await api.post("/hub/quality-holds", { itemIds: [], reason: "r", kind: "damage" }), "/body/itemIds");
    expectFieldError(
      await api.post("/hub/quality-holds", { itemIds: Array.from({ length: 101 }, () => Bun.randomUUIDv7()), reason: "r", kind: "damage" }),
      "/body/itemIds",
    );
    expectFieldError(await api.post("/hub/quality-holds", { itemIds: [x.id], reason: "r", kind: "mould" }), "/body/kind");
    expectFieldError(await api.post("/hub/quality-holds", { itemIds: [x.id], reason: "", kind: "damage" }), "/body/reason");
    expectProblem(await api.as("vic").post("/hub/quality-holds", { itemIds: [x.id], reason: "r", kind: "damage" }), 403, "capability_denied");
    expectProblem(await api.post(`/hub/quality-holds/${Bun.randomUUIDv7()}/resolve`, { resolution: "release" }), 404, "not_found");
    expectFieldError(await api.post(`/hub/quality-holds/${Bun.randomUUIDv7()}/resolve`, { resolution: "ignore" }), "/body/resolution");
    expect((await item(x.id)).availability).toBe("available");
  });
});
