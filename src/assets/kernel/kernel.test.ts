// The kernel's two promises: availability is derived from blocks (most restrictive
// first) and never written directly, and an item gains at most one version per
// transaction however many steps touch it. Jobs and requests use the same functions.
import { test, expect, afterAll, describe } from "bun:test";
import { partnerKit } from "../../../test/kit.ts";
import { withTx } from "../../platform/db/transactions.ts";
import { systemContext, SYSTEM_ACTOR, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { changeItem, findItem, recordItemHistory } from "./items.ts";
import { clearBlock, setBlock } from "./blocks.ts";
import { deriveAvailability } from "./lifecycle.ts";
import { recordMovement } from "./movements.ts";

const api = await partnerKit({ users: { ops: "admin" } });
const env = api.env;
afterAll(() => api.close());

/** Runs fn in one transaction of a job-style context (acting as `system`). */
async function inJob<T>(fn: (ctx: TenantCtx) => Promise<T>): Promise<T> {
  const handle = await env.deps.tenancy.acquire(api.partnerId);
  try {
    const ctx = systemContext(env.deps, handle, api.partnerId, "kernel-test", env.deps.clock.now());
    return await withTx(ctx, (ctx) => fn(ctx));
  } finally {
    env.deps.tenancy.release(handle);
  }
}

describe("availability", () => {
  test("derives from lifecycle, quality and blocks, most restrictive first", () => {
    const active = { lifecycle: "active" as const, qualityStatus: "released" };
    expect(deriveAvailability({ ...active, blocks: [] })).toBe("available");
    expect(deriveAvailability({ ...active, blocks: ["reserved"] })).toBe("reserved");
    expect(deriveAvailability({ ...active, blocks: ["reserved", "checked_out"] })).toBe("checked_out");
    expect(deriveAvailability({ ...active, blocks: ["checked_out", "in_transit"] })).toBe("in_transit");
    expect(deriveAvailability({ ...active, blocks: ["in_transit", "hold"] })).toBe("on_hold");
    expect(deriveAvailability({ ...active, qualityStatus: "quarantined", blocks: [] })).toBe("on_hold");
    expect(deriveAvailability({ ...active, blocks: ["hold", "maintenance"] })).toBe("in_maintenance");
    expect(deriveAvailability({ lifecycle: "in_maintenance", qualityStatus: "released", blocks: [] })).toBe("in_maintenance");
  });

  test("setting and clearing blocks moves availability; two sources of one kind both must clear", async () => {
    const item = await api.seed.activeAsset();
    const a = env.deps.newId();
    const b = env.deps.newId();
    expect((await inJob((ctx) => setBlock(ctx, item.id, "in_transit", a))).availability).toBe("in_transit");
    expect((await inJob((ctx) => setBlock(ctx, item.id, "hold", b))).availability).toBe("on_hold");
    // Setting the same block again is one block.
    expect((await inJob((ctx) => setBlock(ctx, item.id, "hold", b))).availability).toBe("on_hold");
    expect((await inJob((ctx) => clearBlock(ctx, item.id, "hold", b))).availability).toBe("in_transit");
    expect((await inJob((ctx) => clearBlock(ctx, item.id, "in_transit", a))).availability).toBe("available");
    // The API reads the same state.
    expect((await api.get(`/items/${item.id}`)).body.availability).toBe("available");
  });

  test("an item in transit (a block, whatever ranks above it) is not moved by POST /items/{id}/move", async () => {
    const item = await api.seed.activeAsset();
    const other = await api.seed.location();
    const shipment = env.deps.newId();
    await inJob((ctx) => setBlock(ctx, item.id, "in_transit", shipment));
    await inJob((ctx) => setBlock(ctx, item.id, "maintenance", shipment));
    const move = await api.post(`/items/${item.id}/move`, { toLocationId: other.id });
    expect(move.status).toBe(409);
    expect(move.body.detail).toContain("in transit");
  });
});

describe("one version per transaction", () => {
  test("several changes and blocks in one transaction give one version; the next transaction another", async () => {
    const item = await api.seed.activeAsset();
    const checkout = env.deps.newId();
    const after = await inJob(async (ctx) => {
      await changeItem(ctx, item.id, { condition: "fair" });
      await setBlock(ctx, item.id, "checked_out", checkout);
      await changeItem(ctx, item.id, { name: "Renamed" });
      return changeItem(ctx, item.id, { attributes: { a: 1 } });
    });
    expect(after).toMatchObject({ version: item.version + 1, condition: "fair", name: "Renamed", availability: "checked_out", attributes: { a: 1 } });
    const stored = await inJob((ctx) => findItem(ctx, item.id));
    expect(stored?.version).toBe(item.version + 1);
    const next = await inJob((ctx) => clearBlock(ctx, item.id, "checked_out", checkout));
    expect(next).toMatchObject({ version: item.version + 2, availability: "available" });
  });

  test("a change to equal values writes nothing and keeps the version", async () => {
    const item = await api.seed.activeAsset({ name: "Same" });
    const after = await inJob((ctx) => changeItem(ctx, item.id, { name: "Same", attributes: {} }));
    expect(after.version).toBe(item.version);
    expect(after.updatedAt).toBe(item.updatedAt);
  });
});

test("a job's context writes history and movements as `system`, through the same functions as a request", async () => {
  const item = await api.seed.activeAsset();
  await inJob(async (ctx) => {
    await recordItemHistory(ctx, item.id, "noted", { by: "job" });
    await recordMovement(ctx, { itemId: item.id, kind: "moved", fromLocationId: item.locationId, toLocationId: item.locationId });
  });
  const detail = (await api.get(`/items/${item.id}`)).body;
  expect(detail.history[0]).toMatchObject({ kind: "noted", actorId: SYSTEM_ACTOR });
  expect(detail.latestMovements[0]).toMatchObject({ kind: "moved", actorId: SYSTEM_ACTOR });
});

test("a packed item keeps its availability but neither moves nor leaves on a checkout", async () => {
  const item = await api.seed.activeAsset();
  const other = await api.seed.location();
  const container = env.deps.newId();
  expect((await inJob((ctx) => setBlock(ctx, item.id, "packed", container))).availability).toBe("available");
  const move = await api.post(`/items/${item.id}/move`, { toLocationId: other.id });
  expect(move.status).toBe(409);
  expect(move.body.detail).toContain("packed");
  const out = await api.post("/checkouts", { itemId: item.id, holder: { kind: "user", id: "ops" }, dueAt: new Date(Date.now() + 86_400_000).toISOString() });
  expect(out.status).toBe(409);
  expect(out.body.detail).toContain("packed");
  await inJob((ctx) => clearBlock(ctx, item.id, "packed", container));
  expect((await api.post(`/items/${item.id}/move`, { toLocationId: other.id })).status).toBe(200);
});

test("stock that is packed or in transit is not consumed", async () => {
  const stock = await api.seed.activeAsset({ tracking: "quantity", quantity: 10 });
  const shipment = env.deps.newId();
  for (const kind of ["packed", "in_transit"] as const) {
    await inJob((ctx) => setBlock(ctx, stock.id, kind, shipment));
    const r = await api.post(`/items/${stock.id}/consume`, { quantity: 1 });
    expect(r.status).toBe(409);
    expect(r.body.detail).toContain(kind === "packed" ? "packed" : "in transit");
    await inJob((ctx) => clearBlock(ctx, stock.id, kind, shipment));
  }
  expect((await api.post(`/items/${stock.id}/consume`, { quantity: 1 })).body.quantity).toBe(9);
});
