// insertRow: one prepared insert per table and column set, reused by the writer;
// values encoded as Drizzle encodes them; columns Drizzle computes at insert time
// are never frozen into a prepared statement.
import { test, expect, afterAll } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { createTestEnv } from "../harness.ts";
import { insertRow } from "../../src/platform/db/prepared.ts";
import { outbox } from "../../src/platform/outbox/outbox.tables.ts";

const env = await createTestEnv();
afterAll(() => env.close());
await env.provision("ins-co");

let counter = 0;
const stamped = sqliteTable("insert_row_probe", {
  id: text("id").primaryKey(),
  stamp: integer("stamp").notNull().$defaultFn(() => ++counter),
  flag: integer("flag", { mode: "boolean" }).notNull(),
});

test("rows round-trip with JSON and boolean encoding; computed defaults stay per row", async () => {
  const h = await env.deps.tenancy.acquire("ins-co");
  try {
    await env.deps.tenancy.writeTx(h, async (tx) => {
      await tx.run(sql`CREATE TABLE insert_row_probe (id text PRIMARY KEY, stamp integer NOT NULL, flag integer NOT NULL)`);
      for (let i = 0; i < 3; i++) {
        await insertRow(tx, outbox, {
          id: `e${i}`,
          kind: "asset.created",
          aggregateId: "a",
          payload: { n: i, nested: { ok: true } },
          occurredAt: "2026-01-01T00:00:00.000Z",
          createdAt: "2026-01-01T00:00:00.000Z",
        });
        await insertRow(tx, stamped, { id: `p${i}`, flag: i % 2 === 0 });
      }
    });
    const events = await h.db.read.select().from(outbox).where(eq(outbox.aggregateId, "a"));
    expect(events.map((e) => e.payload)).toEqual([0, 1, 2].map((n) => ({ n, nested: { ok: true } })));
    const probes = await h.db.read.select().from(stamped);
    expect(probes.map((p) => [p.id, p.stamp, p.flag])).toEqual([
      ["p0", 1, true],
      ["p1", 2, false],
      ["p2", 3, true],
    ]);
  } finally {
    env.deps.tenancy.release(h);
  }
});
