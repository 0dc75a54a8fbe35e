// The moves every versioned record makes: load one by id or answer 404, save a
// change as the next version (only the changed fields, version + 1, updatedAt), and
// for archivable master records: create, check a reference a body names, and the
// PATCH with expectedVersion, each written once here instead of once per register.
import { and, eq, getTableName, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { assertVersion, invalid, notFound } from "../errors/app-error.ts";
import { newRecordMeta, type TenantCtx } from "../tenancy/tenant-context.ts";
import type { Querier } from "./database.ts";
import { db, withTx, writer } from "./transactions.ts";
import { hasPendingRows, pendingImportOf, visibleRows } from "./pending.ts";
import { preparedFor } from "./prepared.ts";

type RecordTable = SQLiteTable & { id: SQLiteColumn; version: SQLiteColumn; updatedAt: SQLiteColumn };
type AnyQuerier = Querier<never> | Querier<Record<string, unknown>>;

interface PreparedSelect {
  all(values: Record<string, unknown>): Promise<unknown[]>;
}

/**
 * The visible row of `table` with an id, as a query kept prepared per querier (./prepared.ts):
 * every write path looks up the records its body names, and rebuilding this SQL each time was
 * a measurable part of a write. `columns` is the whole row or its status only; `pendingImportId`,
 * the import batch a context applies, whose own rows it sees (a second shape, the batch a second
 * placeholder). The SQL text is the one the query built with its values would have.
 */
async function visibleById(q: AnyQuerier, table: SQLiteTable & { id: SQLiteColumn }, columns: "row" | "status", id: string, pendingImportId?: string): Promise<unknown> {
  const ownBatch = pendingImportId !== undefined && pendingImportId !== "" && hasPendingRows(table);
  const prepared = preparedFor(q, `byId\u0000${getTableName(table)}\u0000${columns}${ownBatch ? "\u0000own" : ""}`, (q) =>
    (columns === "row" ? q.select() : q.select({ status: (table as ArchivableTable).status }))
      .from(table)
      .where(and(eq(table.id, sql.placeholder("id")), visibleRows(table, ownBatch ? { pendingImportId: sql.placeholder("pendingImportId") } : undefined)))
      // Drizzle forces the cast: a prepared select of a table the generic cannot name has no usable row type.
      .prepare() as unknown as PreparedSelect,
  );
  return (await prepared.all(ownBatch ? { id, pendingImportId } : { id }))[0];
}

/** The record with this id, or 404 `not_found` naming `what` (also while an import still applying it keeps it pending). */
export async function loadOr404<T extends SQLiteTable & { id: SQLiteColumn }>(q: AnyQuerier, table: T, id: string, what: string): Promise<T["$inferSelect"]> {
  const row = await visibleById(q, table, "row", id);
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
 * Writes `change` as the record's next version (version + 1, updatedAt = now; only
 * the changed fields are set) and returns the new row. `row` is the record as read
 * in this transaction. An empty change writes nothing and returns `row` as it was,
 * unless `evenIfEmpty`: a command whose effect lies in the record's history or
 * parts (an escalation, a count) still makes it a new version.
 */
export async function saveVersion<T extends RecordTable, R extends T["$inferSelect"] & { id: string; version: number; updatedAt: string }>(
  tx: AnyQuerier,
  table: T,
  row: R,
  change: Partial<R>,
  nowIso: string,
  opts: { evenIfEmpty?: boolean } = {},
): Promise<R> {
  if (Object.keys(change).length === 0 && !opts.evenIfEmpty) return row;
  const next = { ...row, ...change, version: row.version + 1, updatedAt: nowIso };
  await (tx as Querier<Record<string, never>>)
    .update(table as SQLiteTable)
    .set({ ...change, version: next.version, updatedAt: nowIso } as never)
    .where(eq(table.id, row.id));
  return next;
}

type ArchivableTable = RecordTable & { status: SQLiteColumn };
type ArchivableRow = { id: string; status: "active" | "archived"; version: number; createdAt: string; updatedAt: string; createdBy: string };

/**
 * Inserts a new active record (version 1, authored now by the context's actor) and returns it;
 * pending when the context applies an import batch (src/platform/db/pending.ts).
 */
export async function insertRecord<T extends ArchivableTable, R extends T["$inferSelect"] & ArchivableRow>(
  ctx: TenantCtx,
  table: T,
  fields: Omit<R, keyof ArchivableRow | "pendingImportId">,
): Promise<R> {
  const row = { ...newRecordMeta(ctx), status: "active", ...fields, ...(hasPendingRows(table) ? { pendingImportId: pendingImportOf(ctx) } : {}) } as unknown as R;
  await writer(ctx).insert(table as SQLiteTable).values(row as never);
  return row;
}

/**
 * The record a request body names (`path`, e.g. `/body/partyId`): unknown is 400
 * `unknown <what>`, archived is 400 `<what> is archived`, never a 404; nothing new
 * may refer to an archived record. Reads through the context (the open transaction, if any).
 */
export async function requireActive<T extends ArchivableTable>(ctx: TenantCtx, table: T, id: string, path: string, what: string): Promise<T["$inferSelect"]> {
  const row = (await visibleById(db(ctx), table, "row", id, ctx.pendingImportId)) as { status: string } | undefined;
  if (!row) throw invalid(path, `unknown ${what}`);
  if (row.status !== "active") throw invalid(path, `${what} is archived`);
  return row as T["$inferSelect"];
}

/** Whether a record has this id (with `activeOnly`, an active one). */
export async function recordExists(ctx: TenantCtx, table: ArchivableTable, id: string, opts: { activeOnly?: boolean } = {}): Promise<boolean> {
  const row = (await visibleById(db(ctx), table, "status", id, ctx.pendingImportId)) as { status: string } | undefined;
  return row !== undefined && (!opts.activeOnly || row.status === "active");
}

export interface UpdateChecks<R> {
  /** 400s of the change (referenced ids, field rules): they come before the version check. */
  validate?(ctx: TenantCtx, row: R, change: Partial<R>): Promise<void> | void;
  /** 409s of a real change (uniqueness, state rules): after the version check, not run for a no-op. */
  rules?(ctx: TenantCtx, row: R, change: Partial<R>): Promise<void> | void;
}

/**
 * The PATCH of a versioned record, in one transaction: 404, then `validate` (400s),
 * then expectedVersion (409), then, unless nothing differs, `rules` (409s) and the
 * next version. Returns the record as stored.
 */
export async function updateVersioned<T extends RecordTable, R extends T["$inferSelect"] & { id: string; version: number; updatedAt: string }>(
  ctx: TenantCtx,
  table: T,
  id: string,
  what: string,
  input: { expectedVersion: number } & Partial<R>,
  checks: UpdateChecks<R> = {},
): Promise<R> {
  return withTx(ctx, async (ctx) => {
    const row = (await loadOr404(writer(ctx), table, id, what)) as R;
    const { expectedVersion, ...fields } = input;
    // TypeScript forces the cast: the rest of a generic intersection is an Omit it cannot relate back to Partial<R>.
    const change = changesOf(row, fields as unknown as Partial<R>);
    await checks.validate?.(ctx, row, change);
    assertVersion(what, row, expectedVersion);
    if (Object.keys(change).length === 0) return row;
    await checks.rules?.(ctx, row, change);
    return saveVersion(writer(ctx), table, row, change, ctx.nowIso);
  });
}
