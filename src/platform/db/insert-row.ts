// Inserts on the hot write paths without rebuilding their SQL every time. Drizzle
// builds an insert's SQL anew on each call (chunk trees, name escaping, one Param
// per column), which was about a third of a write request's CPU. insertRow builds
// one prepared insert per table and set of provided columns, with placeholders,
// and keeps it for as long as the transaction querier lives: on bun:sqlite that is
// the partner's writer, so it is built once; a remote transaction builds it anew.
import { sql, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Querier } from "./database.ts";

interface PreparedInsert {
  run(values: Record<string, unknown>): unknown;
}

const byQuerier = new WeakMap<object, Map<string, PreparedInsert | null>>();

/** Columns whose value Drizzle computes when absent: a prepared insert would freeze it. */
function computesAbsent(table: SQLiteTable, provided: Set<string>): boolean {
  for (const [name, col] of Object.entries(table as unknown as Record<string, { defaultFn?: unknown; onUpdateFn?: unknown }>)) {
    if (provided.has(name) || typeof col !== "object" || col === null) continue;
    if (col.defaultFn !== undefined || col.onUpdateFn !== undefined) return true;
  }
  return false;
}

export async function insertRow<T extends SQLiteTable>(tx: Querier<never> | Querier<Record<string, unknown>>, table: T, row: T["$inferInsert"]): Promise<void> {
  const q = tx as unknown as Querier<Record<string, never>>;
  const values = row as Record<string, unknown>;
  const keys = Object.keys(values).filter((k) => values[k] !== undefined).sort();
  let cache = byQuerier.get(q);
  if (!cache) {
    cache = new Map();
    byQuerier.set(q, cache);
  }
  const key = `${getTableName(table)}\u0000${keys.join(",")}`;
  let prepared = cache.get(key);
  if (prepared === undefined) {
    prepared = computesAbsent(table, new Set(keys))
      ? null
      : (q.insert(table).values(Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as never).prepare() as unknown as PreparedInsert);
    cache.set(key, prepared);
  }
  if (prepared === null) {
    await q.insert(table).values(row as never);
    return;
  }
  await prepared.run(Object.fromEntries(keys.map((k) => [k, values[k]])));
}
