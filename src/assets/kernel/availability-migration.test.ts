// Migration 0003 brings a partner database written before lifecycle in_maintenance
// and availability `unavailable` existed to what the kernel now derives: active items
// with a started, unfinished work order are in maintenance, items out of use are
// unavailable, each changed item with a new version; nothing else is touched.
import { test, expect, afterAll } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrationsFolder } from "../../platform/db/migrations.ts";

const MIGRATION = "0003_availability_unavailable";
const dir = mkdtempSync(join(tmpdir(), "availability-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The tenant migrations as they were before this one: its predecessors only. */
function migrationsBefore(tag: string): string {
  const source = migrationsFolder("tenant");
  const journal = JSON.parse(readFileSync(join(source, "meta/_journal.json"), "utf8")) as { entries: Array<{ idx: number; tag: string }> };
  const upTo = journal.entries.findIndex((e) => e.tag === tag);
  expect(upTo).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, upTo);
  const out = join(dir, "before");
  mkdirSync(join(out, "meta"), { recursive: true });
  writeFileSync(join(out, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const e of entries) copyFileSync(join(source, `${e.tag}.sql`), join(out, `${e.tag}.sql`));
  return out;
}

test("items out of use become unavailable and items under a started work order in_maintenance", () => {
  const sqlite = new Database(join(dir, "partner.db"));
  sqlite.run("PRAGMA foreign_keys=ON");
  migrate(drizzle(sqlite), { migrationsFolder: migrationsBefore(MIGRATION) });

  const T = "2026-01-05T10:00:00.000Z";
  sqlite.run(`INSERT INTO locations (id, name, kind, created_at, updated_at, created_by) VALUES ('loc', 'Depot', 'site', ?, ?, 'ada')`, [T, T]);
  const item = (id: string, lifecycle: string, availability: string) =>
    sqlite.run(
      `INSERT INTO items (id, name, ownership, tracking, condition, quality_status, attributes, lifecycle, availability, location_id, version, created_at, updated_at, created_by)
       VALUES (?, ?, 'owned', 'serialised', 'good', 'released', '{}', ?, ?, 'loc', 3, ?, ?, 'ada')`,
      [id, id, lifecycle, availability, T, T],
    );
  const order = (id: string, itemId: string, status: string) =>
    sqlite.run(
      `INSERT INTO work_orders (id, item_id, kind, title, status, holds_item, created_at, updated_at, created_by) VALUES (?, ?, 'repair', 'Fix', ?, 1, ?, ?, 'ada')`,
      [id, itemId, status, T, T],
    );
  item("planned", "planned", "available");
  item("retired", "retired", "available");
  item("disposed", "disposed", "available");
  item("consumed", "consumed", "available");
  item("plannedInspected", "planned", "in_maintenance");
  order("w0", "plannedInspected", "in_progress");
  item("working", "active", "in_maintenance");
  order("w1", "working", "in_progress");
  item("paused", "active", "in_maintenance");
  order("w2", "paused", "paused");
  item("waiting", "active", "in_maintenance");
  order("w3", "waiting", "open");
  item("repaired", "active", "available");
  order("w4", "repaired", "completed");
  item("lent", "active", "checked_out");

  migrate(drizzle(sqlite), { migrationsFolder: migrationsFolder("tenant") });

  const rows = sqlite.query("SELECT id, lifecycle, availability, version, updated_at AS updatedAt FROM items ORDER BY id").all() as Array<{
    id: string;
    lifecycle: string;
    availability: string;
    version: number;
    updatedAt: string;
  }>;
  const state = Object.fromEntries(rows.map((r) => [r.id, [r.lifecycle, r.availability, r.version, r.updatedAt === T ? "unchanged" : "touched"]]));
  expect(state).toEqual({
    planned: ["planned", "unavailable", 4, "touched"],
    retired: ["retired", "unavailable", 4, "touched"],
    disposed: ["disposed", "unavailable", 4, "touched"],
    consumed: ["consumed", "unavailable", 4, "touched"],
    plannedInspected: ["planned", "unavailable", 4, "touched"],
    working: ["in_maintenance", "in_maintenance", 4, "touched"],
    paused: ["in_maintenance", "in_maintenance", 4, "touched"],
    // An order opened but never started holds the item (availability) without moving its lifecycle.
    waiting: ["active", "in_maintenance", 3, "unchanged"],
    repaired: ["active", "available", 3, "unchanged"],
    lent: ["active", "checked_out", 3, "unchanged"],
  });
  // updatedAt keeps the API's instant format (UTC, milliseconds) and moves forward.
  for (const r of rows) {
    expect(r.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(r.updatedAt >= T).toBe(true);
  }
  sqlite.close();
});
