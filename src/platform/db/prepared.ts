// Hot-path statements without rebuilding their SQL every time. Drizzle builds a
// query's SQL anew on each call (chunk trees, name escaping, one Param per value),
// which was about a third of a write request's CPU. A prepared query with
// placeholders is kept for as long as its querier lives: on bun:sqlite the open
// transaction is always the partner's writer, so it is built once; a remote
// transaction is new each time and builds it anew.
import { sql, getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Querier } from "./database.ts";

type AnyQuerier = Querier<never> | Querier<Record<string, unknown>>;

interface PreparedInsert {
  run(values: Record<string, unknown>): unknown;
}

const byQuerier = new WeakMap<object, Map<string, unknown>>();

/** The query `build` prepares on `q`, built once per querier and `key`. */
export function preparedFor<P>(q: AnyQuerier, key: string, build: (q: Querier<Record<string, never>>) => P): P {
  let cache = byQuerier.get(q);
  if (!cache) {
    cache = new Map();
    byQuerier.set(q, cache);
  }
  if (!cache.has(key)) cache.set(key, build(q as Querier<Record<string, never>>));
  return cache.get(key) as P;
}

/** Columns whose value Drizzle computes when absent: a prepared insert would freeze it. */
function computesAbsent(table: SQLiteTable, provided: Set<string>): boolean {
  for (const [name, col] of Object.entries(getTableColumns(table))) {
    if (provided.has(name)) continue;
    if (col.defaultFn !== undefined || col.onUpdateFn !== undefined) return true;
  }
  return false;
}

/**
 * Inserts one row through a prepared insert per table and set of provided columns;
 * where Drizzle would compute an absent column, a plain insert (nothing frozen).
 */
export async function insertRow<T extends SQLiteTable>(tx: AnyQuerier, table: T, row: T["$inferInsert"]): Promise<void> {
  const values = row as Record<string, unknown>;
  const keys = Object.keys(values).filter((k) => values[k] !== undefined).sort();
  const prepared = preparedFor(tx, `insert\u0000${getTableName(table)}\u0000${keys.join(",")}`, (q) =>
    computesAbsent(table, new Set(keys))
      ? null
      : (q.insert(table).values(Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as never).prepare() as PreparedInsert),
  );
  if (prepared === null) {
    await tx.insert(table).values(row as never);
    return;
  }
  await prepared.run(Object.fromEntries(keys.map((k) => [k, values[k]])));
}
