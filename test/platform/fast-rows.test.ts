// The flat-row mapper installed on Drizzle's bun:sqlite queries must give exactly
// what Drizzle's own mapper gives, on real rows: JSON, booleans, nulls, integers,
// money strings, projections with SQL expressions, and (falling back) nested ones.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { count, desc, eq, sql } from "drizzle-orm";
import { createTestEnv } from "../harness.ts";
import { compiledMapper, drizzleMappers, flatMapper } from "../../src/platform/db/fast-rows.ts";
import { items, movements } from "../../src/assets/kernel/kernel.tables.ts";
import { savedViews } from "../../src/assets/views/views.tables.ts";
import { idempotencyKeys } from "../../src/platform/idempotency/idempotency.tables.ts";
import type { TenantHandle } from "../../src/platform/tenancy/tenancy.ts";

const env = await createTestEnv();
afterAll(() => env.close());
const P = "rows-co";
let handle: TenantHandle;

beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "ruth", "admin");
  const token = await env.token("ruth");
  const call = (path: string, body: unknown) => env.call("POST", `/api/assets${path}?partnerId=${P}`, { token, body });
  const site = await call("/locations", { name: "Depot", kind: "site" });
  expect(site.status).toBe(201);
  for (let i = 0; i < 5; i++) {
    const res = await call("/assets", {
      name: `Drill ${i}`,
      ownership: "owned",
      tracking: i % 2 ? "quantity" : "serialised",
      quantity: i % 2 ? 3 : 1,
      locationId: site.body.id,
      attributes: { voltage: 18 + i, cordless: i % 2 === 0, tags: ["a", null] },
      ...(i === 2 ? { acquisitionCost: { amount: "1234.50", currency: "EUR" }, serialNumber: "SN-2" } : {}),
    });
    expect(res.status).toBe(201);
    await call("/saved-views", { name: `View ${i}`, surface: "owned", query: { q: `drill ${i}`, limit: 10 + i } });
  }
  handle = await env.deps.tenancy.acquire(P);
});
afterAll(() => env.deps.tenancy.release(handle));

type Prepared = { fields?: Array<{ path: string[] }>; all(): unknown; get(): unknown };

function bothWays(query: unknown): { fast: unknown; drizzle: unknown; flat: boolean } {
  const prepared = (query as { _prepare(): Prepared })._prepare();
  const drizzle = drizzleMappers.all.call(prepared as never);
  // The compiled row builder (a query's first run with many rows, and every run after) maps alike.
  const compiled = compiledMapper(prepared.fields as never);
  if (compiled) expect((prepared as unknown as { values(): unknown[][] }).values().map(compiled)).toEqual(drizzle as never);
  return {
    fast: prepared.all(),
    drizzle,
    flat: flatMapper(prepared.fields as never) !== undefined,
  };
}

test.skipIf(env.driver !== "bun:sqlite")("flat selections map exactly as Drizzle maps them", () => {
  const q = handle.db.read;
  const cases = [
    q.select().from(items).orderBy(desc(items.updatedAt)),
    q.select().from(savedViews),
    q.select().from(idempotencyKeys),
    q.select().from(movements),
    q.select({ n: count(), k: items.lifecycle }).from(items).groupBy(items.lifecycle),
    q.select({ id: items.id, doubled: sql<number>`${items.quantity} * 2`, note: sql<string | null>`NULL` }).from(items),
  ];
  for (const c of cases) {
    const r = bothWays(c);
    expect(r.flat).toBe(true);
    expect((r.fast as unknown[]).length).toBeGreaterThan(0);
    expect(r.fast).toEqual(r.drizzle);
  }
  // get() too.
  const one = (q.select().from(items).where(eq(items.name, "Drill 2")) as unknown as { _prepare(): Prepared })._prepare();
  expect(one.get()).toEqual(drizzleMappers.get.call(one as never));
  expect((one.get() as { attributes: unknown }).attributes).toEqual({ voltage: 20, cordless: true, tags: ["a", null] });
});

test.skipIf(env.driver !== "bun:sqlite")("nested selections keep Drizzle's own mapper", () => {
  const q = handle.db.read;
  const r = bothWays(q.select({ m: movements, itemName: items.name }).from(movements).innerJoin(items, eq(items.id, movements.itemId)));
  expect(r.flat).toBe(false);
  expect(r.fast).toEqual(r.drizzle);
});
