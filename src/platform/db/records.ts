// The two moves every versioned record makes: load one by id or answer 404, and
// save a change as the next version (only the changed fields, version + 1, updatedAt).
import { eq } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { notFound } from "../errors/app-error.ts";
import type { Querier } from "./database.ts";

type RecordTable = SQLiteTable & { id: SQLiteColumn; version: SQLiteColumn; updatedAt: SQLiteColumn };
type AnyQuerier = Querier<never> | Querier<Record<string, unknown>>;

/** The record with this id, or 404 `not_found` naming `what`. */
export async function loadOr404<T extends SQLiteTable & { id: SQLiteColumn }>(q: AnyQuerier, table: T, id: string, what: string): Promise<T["$inferSelect"]> {
  const row = (await (q as Querier<Record<string, never>>).select().from(table as SQLiteTable).where(eq(table.id, id)))[0];
  if (!row) throw notFound(what);
  return row as T["$inferSelect"];
}

/** The fields of `patch` that differ from `row`; an empty result means the change is a no-op. */
export function changesOf<R extends object>(row: R, patch: Partial<R>): Partial<R> {
  const out: Partial<R> = {};
  for (const key of Object.keys(patch) as Array<keyof R>) {
    const v = patch[key];
    if (v !== undefined && v !== row[key]) out[key] = v;
  }
  return out;
}

/**
 * Writes `change` as the record's next version and returns the new row; a no-op
 * (empty change) writes nothing and returns `row` as it was.
 */
export async function saveVersion<T extends RecordTable, R extends T["$inferSelect"] & { id: string; version: number; updatedAt: string }>(
  tx: AnyQuerier,
  table: T,
  row: R,
  change: Partial<R>,
  nowIso: string,
): Promise<R> {
  if (Object.keys(change).length === 0) return row;
  const next = { ...row, ...change, version: row.version + 1, updatedAt: nowIso };
  await (tx as Querier<Record<string, never>>)
    .update(table as SQLiteTable)
    .set({ ...change, version: next.version, updatedAt: nowIso } as never)
    .where(eq(table.id, row.id));
  return next;
}
