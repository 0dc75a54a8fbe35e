// The event log of a versioned record (src/platform/db/history.ts): the table
// factory declares exactly the columns, index and foreign key the migrations made
// for every log; appendEvent writes one row stamped by the context, only inside its
// transaction and rolled back with it; historyOf reads newest first; toEventDto is
// the published shape. Runs on both drivers.
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getTableName, sql } from "drizzle-orm";
import { getTableConfig, integer, sqliteTable, text, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { MutableClock } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import * as tenantSchema from "../../src/db/tenant-schema.ts";
import { appendEntry, appendEvent, eventLogTable, historyOf, isEventLog, toEventDto } from "../../src/platform/db/history.ts";
import { loadOr404, saveVersion } from "../../src/platform/db/records.ts";
import { withTx, writer } from "../../src/platform/db/transactions.ts";

const clock = new MutableClock(new Date("2026-03-02T09:00:00.000Z"));
const api = await partnerKit({ partnerId: "history-co", clock });
afterAll(() => api.close());

/** A log as a domain declares one: its record column, kinds and one column of its own. */
const probeEvents = eventLogTable(
  "probe_events",
  { probeId: text("probe_id").notNull() },
  { index: "probe_events_probe_idx", kinds: ["opened", "revised", "closed"] as const, columns: { revision: integer("revision").notNull() } },
);
/** A log without a reason column. */
const quietEvents = eventLogTable("quiet_events", { probeId: text("probe_id").notNull() }, { index: "quiet_events_probe_idx", reason: false });
/** The versioned record the probe log belongs to. */
const probes = sqliteTable("probes", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  version: integer("version").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
/** An append-only table that is no event log. */
const probeTrail = eventLogTable("probe_trail", { subjectId: text("subject_id").notNull() }, { index: "probe_trail_subject_idx" });

await api.inTenant((ctx) =>
  withTx(ctx, async (ctx) => {
    const q = writer(ctx);
    await q.run(sql`create table probe_events (id text primary key not null, probe_id text not null, kind text not null, revision integer not null,
      actor_id text not null, recorded_at text not null, reason text, data text not null)`);
    await q.run(sql`create table quiet_events (id text primary key not null, probe_id text not null, kind text not null,
      actor_id text not null, recorded_at text not null, data text not null)`);
    await q.run(sql`create table probes (id text primary key not null, name text not null, version integer not null, created_at text not null, updated_at text not null)`);
    await q.run(sql`create table probe_trail (id text primary key not null, subject_id text not null, kind text not null,
      actor_id text not null, recorded_at text not null, reason text, data text not null)`);
  }),
);

/** The columns, indexes and foreign keys of a table as drizzle-kit's snapshot records them. */
function shapeOf(table: SQLiteTable) {
  const config = getTableConfig(table);
  return {
    columns: Object.fromEntries(config.columns.map((c) => [c.name, { type: c.getSQLType(), primaryKey: c.primary, notNull: c.notNull }])),
    indexes: Object.fromEntries(config.indexes.map((i) => [i.config.name, i.config.columns.map((c) => (c as { name: string }).name)])),
    foreignKeys: config.foreignKeys.map((fk) => fk.getName()).sort(),
  };
}

function latestSnapshot(): Record<string, { columns: Record<string, { name: string; type: string; primaryKey: boolean; notNull: boolean }>; indexes: Record<string, { columns: string[] }>; foreignKeys: Record<string, unknown> }> {
  const dir = join(import.meta.dir, "../../migrations/tenant/meta");
  const last = readdirSync(dir).filter((f) => f.endsWith("_snapshot.json")).sort().at(-1)!;
  return JSON.parse(readFileSync(join(dir, last), "utf8")).tables;
}

describe("the table factory", () => {
  test("every event log has exactly the columns, index and foreign key its migrations created", () => {
    const logs = Object.values(tenantSchema as Record<string, unknown>).filter(isEventLog);
    expect(logs.map((t) => getTableName(t))).toEqual(
      expect.arrayContaining([
        "checkout_events",
        "work_order_events",
        "audit_events",
        "shipment_events",
        "policy_events",
        "hub_task_events",
        "hub_record_events",
        "evidence_events",
        "workflow_case_history",
      ]),
    );
    const snapshot = latestSnapshot();
    for (const log of logs) {
      const stored = snapshot[getTableName(log)]!;
      expect(shapeOf(log)).toEqual({
        columns: Object.fromEntries(Object.values(stored.columns).map((c) => [c.name, { type: c.type, primaryKey: c.primaryKey, notNull: c.notNull }])),
        indexes: Object.fromEntries(Object.entries(stored.indexes).map(([name, i]) => [name, i.columns])),
        foreignKeys: Object.keys(stored.foreignKeys).sort(),
      });
    }
  });

  test("the columns come in one order: id, the record, kind, the log's own, actor, time, reason, data", () => {
    expect(getTableConfig(probeEvents).columns.map((c) => c.name).sort()).toEqual(["actor_id", "data", "id", "kind", "probe_id", "reason", "recorded_at", "revision"]);
    expect(Object.keys(probeEvents)).toEqual(["id", "probeId", "kind", "revision", "actorId", "recordedAt", "reason", "data"]);
    expect(Object.keys(quietEvents)).toEqual(["id", "probeId", "kind", "actorId", "recordedAt", "data"]);
    expect(shapeOf(probeEvents).indexes).toEqual({ probe_events_probe_idx: ["probe_id", "recorded_at", "id"] });
  });

  test("a log names exactly one record column", () => {
    expect(() => eventLogTable("twice_events", { aId: text("a_id"), bId: text("b_id") }, { index: "twice_idx" })).toThrow(
      "twice_events: an event log names exactly one record column, not 2",
    );
  });
});

describe("appending and reading", () => {
  test("appendEvent writes one row stamped with the context's actor and time; historyOf reads newest first", async () => {
    await api.inTenant((ctx) => withTx(ctx, (ctx) => appendEvent(ctx, probeEvents, "p1", "opened", null, { size: 3 }, { revision: 1 })));
    clock.advance(60_000);
    await api.inTenant((ctx) => withTx(ctx, (ctx) => appendEvent(ctx, probeEvents, "p1", "revised", "typo", { from: 1 }, { revision: 2 })));
    await api.inTenant((ctx) => withTx(ctx, (ctx) => appendEvent(ctx, probeEvents, "p2", "closed", null, {}, { revision: 1 })));

    const history = await api.read((q) => historyOf(q, probeEvents, "p1"));
    expect(history.map(({ id: _id, ...r }) => r)).toEqual([
      { probeId: "p1", kind: "revised", revision: 2, actorId: "system", recordedAt: "2026-03-02T09:01:00.000Z", reason: "typo", data: { from: 1 } },
      { probeId: "p1", kind: "opened", revision: 1, actorId: "system", recordedAt: "2026-03-02T09:00:00.000Z", reason: null, data: { size: 3 } },
    ]);
    expect(new Set(history.map((r) => r.id)).size).toBe(2);
    expect((await api.read((q) => historyOf(q, probeEvents, "p1", { limit: 1 }))).map((r) => r.kind)).toEqual(["revised"]);
    expect((await api.read((q) => historyOf(q, probeEvents, "p1", { oldestFirst: true }))).map((r) => r.kind)).toEqual(["opened", "revised"]);
  });

  test("within one transaction, the later of two steps comes first", async () => {
    await api.inTenant((ctx) =>
      withTx(ctx, async (ctx) => {
        await appendEvent(ctx, probeEvents, "p3", "opened", null, {}, { revision: 1 });
        await appendEvent(ctx, probeEvents, "p3", "closed", null, {}, { revision: 1 });
        // The open transaction reads its own rows.
        expect((await historyOf(writer(ctx), probeEvents, "p3")).map((r) => r.kind)).toEqual(["closed", "opened"]);
      }),
    );
  });

  test("an event is written only inside a transaction, and rolls back with it", async () => {
    await api.inTenant(async (ctx) => {
      await expect(appendEvent(ctx, probeEvents, "p4", "opened", null, {}, { revision: 1 })).rejects.toThrow("no write transaction is open");
      await expect(
        withTx(ctx, async (ctx) => {
          await appendEvent(ctx, probeEvents, "p4", "opened", null, {}, { revision: 1 });
          throw new Error("the command fails after its event");
        }),
      ).rejects.toThrow("the command fails after its event");
    });
    expect(await api.read((q) => historyOf(q, probeEvents, "p4"))).toEqual([]);
  });

  test("a log without a reason column takes none", async () => {
    await api.inTenant((ctx) => withTx(ctx, (ctx) => appendEvent(ctx, quietEvents, "p5", "scan", null, { clean: true })));
    expect((await api.read((q) => historyOf(q, quietEvents, "p5"))).map(({ id: _id, ...r }) => r)).toEqual([
      { probeId: "p5", kind: "scan", actorId: "system", recordedAt: clock.now().toISOString(), data: { clean: true } },
    ]);
    await api.inTenant(async (ctx) => {
      await expect(withTx(ctx, (ctx) => appendEvent(ctx, quietEvents, "p5", "scan", "why", {}))).rejects.toThrow("this event log has no reason column");
    });
  });

  test("appendEntry stamps any append-only row the same way", async () => {
    await api.inTenant((ctx) => withTx(ctx, (ctx) => appendEntry(ctx, probeTrail, { subjectId: "s1", kind: "linked", reason: null, data: { to: "x" } })));
    const [row] = await api.read((q) => historyOf(q, probeTrail, "s1"));
    expect(row).toMatchObject({ subjectId: "s1", kind: "linked", actorId: "system", recordedAt: clock.now().toISOString(), data: { to: "x" } });
  });
});

describe("the versioned save", () => {
  test("a change is the next version; an empty one is a no-op unless evenIfEmpty (a step only the history records)", async () => {
    const created = "2026-03-02T08:00:00.000Z";
    await api.inTenant((ctx) => withTx(ctx, (ctx) => writer(ctx).insert(probes).values({ id: "r1", name: "first", version: 1, createdAt: created, updatedAt: created })));
    const save = (change: Partial<typeof probes.$inferSelect>, opts?: { evenIfEmpty?: boolean }) =>
      api.inTenant((ctx) =>
        withTx(ctx, async (ctx) => saveVersion(writer(ctx), probes, await loadOr404(writer(ctx), probes, "r1", "probe"), change, ctx.nowIso, opts)),
      );
    const stored = () => api.read(async (q) => (await q.select().from(probes))[0]);

    clock.advance(1000);
    const renamed = await save({ name: "second" });
    expect(renamed).toEqual({ id: "r1", name: "second", version: 2, createdAt: created, updatedAt: clock.now().toISOString() });
    expect(await stored()).toEqual(renamed);

    clock.advance(1000);
    expect(await save({})).toEqual(renamed);
    expect(await stored()).toEqual(renamed);

    const touched = await save({}, { evenIfEmpty: true });
    expect(touched).toEqual({ ...renamed, version: 3, updatedAt: clock.now().toISOString() });
    expect(await stored()).toEqual(touched);
  });
});

describe("the published event", () => {
  const row = { id: "e1", probeId: "p1", kind: "revised" as const, revision: 2, actorId: "ann", recordedAt: "2026-03-02T09:01:00.000Z", reason: "typo", data: { from: 1 } };

  test("carries id, kind, actorId, recordedAt, reason and data, nothing of the storage", () => {
    expect(JSON.stringify(toEventDto(row))).toBe('{"id":"e1","kind":"revised","actorId":"ann","recordedAt":"2026-03-02T09:01:00.000Z","reason":"typo","data":{"from":1}}');
  });

  test("a domain's own published fields follow the kind", () => {
    expect(JSON.stringify(toEventDto(row, { revision: row.revision }))).toBe(
      '{"id":"e1","kind":"revised","revision":2,"actorId":"ann","recordedAt":"2026-03-02T09:01:00.000Z","reason":"typo","data":{"from":1}}',
    );
  });
});
