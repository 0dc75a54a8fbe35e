// A snapshot of a partner's tables, row by row, in one query (one round trip on the
// libSQL driver too): for "nothing changed" assertions such as the fuzz suite's
// "no state change on any 4xx". Technical tables are left out (see EXCLUDED).
import { sql } from "drizzle-orm";
import type { TestEnv } from "../harness.ts";

/**
 * Not compared: drizzle's migration journal, the job scheduler's bookkeeping (job_runs,
 * job_leases: runs and leases, not partner data; JOBS=off in tests anyway), and the FTS5
 * indexes (external-content tables the triggers keep in step with their base tables, which
 * are compared). The rate limiter and the in-flight idempotency map are in memory.
 */
export const EXCLUDED = /^(sqlite_|__drizzle_migrations$|job_runs$|job_leases$|.*_fts($|_))/;

/** Every row of every compared table, by table: each row as JSON text, sorted (order-independent). */
export type TableSnapshot = Map<string, string[]>;

export interface TableDigest {
  /** The tables compared. */
  tables: string[];
  snapshot(): Promise<TableSnapshot>;
}

async function withReader<T>(env: TestEnv, partnerId: string, fn: (read: TenantRead) => Promise<T>): Promise<T> {
  const handle = await env.deps.tenancy.acquire(partnerId);
  try {
    return await fn(handle.db.read as unknown as TenantRead);
  } finally {
    env.deps.tenancy.release(handle);
  }
}
type TenantRead = { all<T>(q: ReturnType<typeof sql.raw>): Promise<T[]> };

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Prepares the one query that reads every compared table of `partnerId`. */
export async function tableDigest(env: TestEnv, partnerId: string): Promise<TableDigest> {
  const columns = await withReader(env, partnerId, (read) =>
    read.all<{ t: string; c: string }>(
      sql.raw("SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid"),
    ),
  );
  const byTable = new Map<string, string[]>();
  for (const { t, c } of columns) {
    if (EXCLUDED.test(t)) continue;
    byTable.set(t, [...(byTable.get(t) ?? []), c]);
  }
  const tables = [...byTable.keys()];
  // Blobs as hex: JSON cannot hold them.
  const cell = (c: string) => `CASE WHEN typeof(${quote(c)}) = 'blob' THEN hex(${quote(c)}) ELSE ${quote(c)} END`;
  const select = tables
    .map((t, i) => `(SELECT json_group_array(r) FROM (SELECT json_array(${byTable.get(t)!.map(cell).join(", ")}) AS r FROM ${quote(t)})) AS t${i}`)
    .join(",\n");
  const query = sql.raw(`SELECT ${select}`);
  return {
    tables,
    async snapshot() {
      const [row] = await withReader(env, partnerId, (read) => read.all<Record<string, string>>(query));
      const out: TableSnapshot = new Map();
      tables.forEach((t, i) => {
        const rows = (JSON.parse(row![`t${i}`] ?? "[]") as unknown[]).map((r) => JSON.stringify(r));
        out.set(t, rows.sort());
      });
      return out;
    },
  };
}

/** The tables whose rows differ, each with how many rows appeared and disappeared. */
export function changedTables(before: TableSnapshot, after: TableSnapshot): Array<{ table: string; added: number; removed: number }> {
  const out: Array<{ table: string; added: number; removed: number }> = [];
  for (const [table, rows] of after) {
    const old = before.get(table) ?? [];
    if (old.length === rows.length && old.every((r, i) => r === rows[i])) continue;
    const was = new Set(old);
    const now = new Set(rows);
    out.push({ table, added: rows.filter((r) => !was.has(r)).length, removed: old.filter((r) => !now.has(r)).length });
  }
  return out;
}
