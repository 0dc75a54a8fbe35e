// An EXPLAIN QUERY PLAN run through Drizzle on the partner's reader used to leave
// that connection's snapshot open (the cached statement held it): later reads saw
// the data as it was before, even after other commits.
import { test, expect, afterAll } from "bun:test";
import { count, sql } from "drizzle-orm";
import { partnerKit } from "../kit.ts";
import { locations } from "../../src/assets/locations/locations.tables.ts";

const api = await partnerKit({ users: { ops: "admin" } });
afterAll(() => api.close());

test("reads after an EXPLAIN on the reader see later commits", async () => {
  await api.post("/locations", { name: "A", kind: "room" });
  const h = await api.env.deps.tenancy.acquire(api.partnerId);
  try {
    const before = (await h.db.read.select({ n: count() }).from(locations))[0]!.n;
    const plan = await h.db.read.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT count(*) FROM locations WHERE name = 'x'`);
    expect(plan.length).toBeGreaterThan(0);
    expect((await api.post("/locations", { name: "B", kind: "room" })).status).toBe(201);
    expect((await h.db.read.select({ n: count() }).from(locations))[0]!.n).toBe(before + 1);
    expect((await api.get("/locations")).body.total).toBe(before + 1);
  } finally {
    api.env.deps.tenancy.release(h);
  }
});
