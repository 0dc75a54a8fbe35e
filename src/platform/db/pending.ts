// Rows written by a CSV import commit that is still being applied (issue 22 item 4).
// The commit applies a batch in many short transactions so other writers of the
// partner are not held up; every row those transactions create (records, history,
// outbox events) carries the batch's id in `pending_import_id`, and the batch is listed
// in `pending_batches` until the commit's last transaction deletes that one row: all
// its rows turn visible at once, whatever their number (a per-row flip of 10,000 items,
// movements and history rows measured 330 ms). The column keeps the batch id afterwards.
// Until then no read may see them: each read of such a table adds `visibleRows`, and the
// outbox's readers stop before the first pending event (`visibleOutboxEnd`), so an event
// never turns visible behind a reader's cursor.
// A context applying the batch (TenantCtx.pendingImportId) writes its rows pending
// and sees its own pending rows (a row of the batch may name a location it created).
import { and, eq, getTableName, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { index, text, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";

/** The column: null for a row no import wrote, else the import batch that wrote it. */
export const pendingImportColumn = () => text("pending_import_id");

/**
 * The table's index of import rows, for the pending side of a count and the clean-up
 * of a failed commit. Partial: it holds only rows an import wrote, so an ordinary
 * insert adds nothing to it.
 */
export const pendingImportIndex = (name: string, column: SQLiteColumn) => index(name).on(column).where(sql`pending_import_id IS NOT NULL`);

type PendingTable = SQLiteTable & { pendingImportId: SQLiteColumn };
/** TenantCtx's part this needs (not imported: the tenant context's module reaches this one through the outbox). */
type PendingCtx = { readonly pendingImportId?: string };
/** What visibleRows reads of it; a kept prepared query passes a placeholder for the batch (src/platform/db/records.ts). */
type PendingReader = { readonly pendingImportId?: string | Placeholder };

/** Whether the table marks import rows. */
export function hasPendingRows(table: SQLiteTable): table is PendingTable {
  return "pendingImportId" in table;
}

const PENDING_IDS = "(SELECT id FROM pending_batches)";

/**
 * The condition of a read: rows no import wrote and rows of a finished import; a
 * context applying a batch also sees that batch's own rows. Undefined for a table
 * without the column.
 */
export function visibleRows(table: PendingTable, ctx?: PendingReader): SQL;
export function visibleRows(table: SQLiteTable, ctx?: PendingReader): SQL | undefined;
export function visibleRows(table: SQLiteTable, ctx?: PendingReader): SQL | undefined {
  if (!hasPendingRows(table)) return undefined;
  const col = table.pendingImportId;
  const visible = sql`(${col} IS NULL OR ${col} NOT IN ${sql.raw(PENDING_IDS)})`;
  return ctx?.pendingImportId ? or(visible, eq(col, ctx.pendingImportId)) : visible;
}

/** The same condition as SQL for a hand-written query over alias `alias` (e.g. `i`). */
export function visibleSql(alias: string): SQL {
  const col = `${alias}.pending_import_id`;
  return sql.raw(`(${col} IS NULL OR ${col} NOT IN ${PENDING_IDS})`);
}

/** Rows still pending: the side an index-covered count subtracts (through the table's partial index; none outside an import). */
export function pendingRows(table: PendingTable): SQL {
  return sql`${table.pendingImportId} IN ${sql.raw(PENDING_IDS)}`;
}

/**
 * `count(*)` of the rows `where` matches less those of an import still being applied, for
 * a count that must keep its covering index (the pending column is in none): the pending
 * side reads the table's partial index `pendingIndex`, empty outside an import.
 */
export function countLessPending(table: PendingTable, pendingIndex: string, where: SQL | undefined): SQL<number> {
  // Schema names, unquoted: the count's SQL text is pinned (test/bench-references.test.ts).
  const pending = sql`SELECT count(*) FROM ${sql.raw(getTableName(table))} INDEXED BY ${sql.raw(pendingIndex)} WHERE ${and(pendingRows(table), where)}`;
  return sql<number>`count(*) - (${pending})`.mapWith(Number);
}

/** The value a row written through `ctx` carries in the column. */
export const pendingImportOf = (ctx: PendingCtx): string | null => ctx.pendingImportId ?? null;

/** The wall clock in epoch ms, in SQL (the lease is compared where every instance reads it). */
export const SQL_NOW_MS = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

/**
 * The last outbox position a reader may pass: just before the first event of a batch
 * still being applied (its holder's lease running), else the end of the outbox. Events
 * written after a pending one wait with it (for the length of the commit) instead of
 * being passed by a cursor for good. An abandoned batch (lease run out) holds nothing
 * back: its events never turn visible (whoever takes it over deletes them), and the
 * readers skip them with `visibleRows(outbox)`.
 */
export const visibleOutboxEnd = sql.raw(
  `coalesce((SELECT min(rowid) - 1 FROM outbox WHERE pending_import_id IN (SELECT id FROM pending_batches WHERE lease_until > ${SQL_NOW_MS})), (SELECT max(rowid) FROM outbox), 0)`,
);
