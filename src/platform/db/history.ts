// A versioned record's event log: one append-only row per step of the record
// (kind, actor, server time, reason, data), written in the command's own
// transaction and read newest first beside the record. A domain declares its log
// (the record it belongs to, its index, any column of its own) and its kinds; the
// columns, the write and the published mapping are written once, here. The record
// itself is saved with saveVersion (records.ts). See README.md beside this file.
import { asc, desc, eq } from "drizzle-orm";
import { index, sqliteTable, text, type SQLiteColumn, type SQLiteColumnBuilderBase, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import type { Querier } from "./database.ts";
import { insertRow } from "./prepared.ts";
import { writer } from "./transactions.ts";

type AnyQuerier = Querier<never> | Querier<Record<string, unknown>>;
type Builders = Record<string, SQLiteColumnBuilderBase>;

/** Where a log table keeps its record column and that column's key (set by eventLogTable). */
const RECORD = Symbol("eventLog.record");
interface RecordColumn<K extends string = string> {
  key: K;
  column: SQLiteColumn;
}

/** A log's event kinds, as the domain publishes them (`as const`). */
type Kinds = readonly [string, ...string[]];

/** `kind`, typed by the log's kinds (the database keeps plain text: no migration sees them). */
function kindColumn<E extends Kinds>(kinds: E | undefined) {
  return text("kind", { enum: kinds as E }).notNull();
}

function logColumns<E extends Kinds>(kinds: E | undefined) {
  return {
    id: text("id").primaryKey(),
    kind: kindColumn(kinds),
    actorId: text("actor_id").notNull(),
    recordedAt: text("recorded_at").notNull(),
    reason: text("reason"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  };
}
type LogColumns<E extends Kinds> = ReturnType<typeof logColumns<E>>;

/** The columns of a log: id, the record's column, kind, the log's own columns, actor, time, reason (unless dropped), data. */
type ColumnsOf<O extends Builders, E extends Kinds, X extends Builders, R extends boolean> = Pick<LogColumns<E>, "id"> &
  O &
  Omit<LogColumns<E>, "id" | keyof X | (R extends false ? "reason" : never)> &
  X;

export interface EventLogOptions<E extends Kinds, X extends Builders, R extends boolean> {
  /** The index on (record, recorded_at, id) that serves the history read, named as the migrations name it. */
  index: string;
  /** The kinds the domain publishes: appendEvent takes only these, and rows read back carry them. */
  kinds?: E;
  /** The log's own columns, placed after `kind` (policies: the revision an event concerns; hub: the record's type). */
  columns?: X;
  /** false: the log has no reason column. */
  reason?: R;
}

/**
 * Declares a `<record>_events` table: `record` is the one column naming the
 * record (with its foreign key, if any), e.g. `{ checkoutId: text("checkout_id").notNull().references(() => checkouts.id) }`.
 * The columns, their names and the index are exactly those every log has had, so
 * adopting the factory changes no migration.
 */
export function eventLogTable<N extends string, O extends Builders, const E extends Kinds = [string, ...string[]], X extends Builders = Record<never, never>, R extends boolean = true>(
  name: N,
  record: O,
  opts: EventLogOptions<E, X, R>,
) {
  const keys = Object.keys(record);
  if (keys.length !== 1) throw new Error(`${name}: an event log names exactly one record column, not ${keys.length}`);
  const recordKey = keys[0] as keyof O & string;
  const { id, kind, actorId, recordedAt, reason, data } = logColumns(opts.kinds);
  const columns = { id, ...record, kind, ...opts.columns, actorId, recordedAt, ...(opts.reason === false ? {} : { reason }), data } as unknown as ColumnsOf<O, E, X, R>;
  const table = sqliteTable(name, columns, (t) => {
    const cols = t as Record<string, SQLiteColumn>;
    return [index(opts.index).on(cols[recordKey]!, cols.recordedAt!, cols.id!)];
  });
  const recordColumn: RecordColumn<keyof O & string> = { key: recordKey, column: (table as Record<string, unknown>)[recordKey] as SQLiteColumn };
  Object.defineProperty(table, RECORD, { value: recordColumn });
  return table as typeof table & { readonly [RECORD]: RecordColumn<keyof O & string> };
}

/** A table declared with eventLogTable. */
export type EventLogTable = SQLiteTable & {
  id: SQLiteColumn;
  kind: SQLiteColumn;
  recordedAt: SQLiteColumn;
  readonly [RECORD]: RecordColumn;
};

/** Whether a table was declared with eventLogTable. */
export function isEventLog(table: unknown): table is EventLogTable {
  return typeof table === "object" && table !== null && RECORD in table;
}

/** The columns of a log's row the platform fills in: everything but the log's own columns. */
type Filled<T extends EventLogTable> = "id" | "kind" | "actorId" | "recordedAt" | "reason" | "data" | T[typeof RECORD]["key"];
/** The log's own columns an event must carry (policies: `{ revision }`, hub: `{ recordType }`); none for most logs. */
export type EventColumns<T extends EventLogTable> = Omit<T["$inferInsert"], Filled<T>>;

/**
 * Appends one row to an append-only log in the context's open transaction: a new
 * id, the context's actor and server time, and `fields`. The write path of every
 * event log and audit trail.
 */
export async function appendEntry<T extends SQLiteTable>(ctx: TenantCtx, table: T, fields: Omit<T["$inferInsert"], "id" | "actorId" | "recordedAt">): Promise<void> {
  await insertRow(writer(ctx), table, { id: ctx.deps.newId(), ...fields, actorId: ctx.actorId, recordedAt: ctx.nowIso } as T["$inferInsert"]);
}

/**
 * One step of a record's history, by the context's actor at its server time, in
 * its open transaction (withTx's context; without one it throws). `columns` are
 * the log's own columns (EventColumns). A log without a reason column takes null.
 */
export async function appendEvent<T extends EventLogTable>(
  ctx: TenantCtx,
  log: T,
  recordId: string,
  kind: T["$inferInsert"]["kind"],
  reason: string | null,
  data: Record<string, unknown>,
  ...columns: Record<never, never> extends EventColumns<T> ? [columns?: EventColumns<T>] : [columns: EventColumns<T>]
): Promise<void> {
  if (reason !== null && !("reason" in log)) throw new Error("this event log has no reason column");
  const row: Record<string, unknown> = { [log[RECORD].key]: recordId, kind, data, ...columns[0] };
  if ("reason" in log) row.reason = reason;
  await appendEntry(ctx, log, row as Omit<T["$inferInsert"], "id" | "actorId" | "recordedAt">);
}

/**
 * A record's history, newest first ((recorded_at, id) descending; `oldestFirst`
 * reverses it; ids are time-ordered, so the steps of one instant keep their order),
 * at most `limit` rows: a query to await or to hand to readSnapshot.
 */
export function historyOf<T extends EventLogTable>(
  q: AnyQuerier,
  log: T,
  recordId: string,
  opts: { limit?: number; oldestFirst?: boolean } = {},
): PromiseLike<Array<T["$inferSelect"]>> {
  const order = opts.oldestFirst ? asc : desc;
  const query = (q as Querier<Record<string, never>>)
    .select()
    .from(log as SQLiteTable)
    .where(eq(log[RECORD].column, recordId))
    .orderBy(order(log.recordedAt), order(log.id));
  return (opts.limit === undefined ? query : query.limit(opts.limit)) as PromiseLike<Array<T["$inferSelect"]>>;
}

/** What every log row has that the API publishes. */
export interface EventRow {
  id: string;
  kind: string;
  actorId: string;
  recordedAt: string;
  reason: string | null;
  data: Record<string, unknown>;
}

/**
 * The published shape of one event: id, kind, actorId, recordedAt, reason, data.
 * A domain that publishes more (policies: the revision) passes it as `extra`; it
 * follows `kind`, as those schemas declare it.
 */
export function toEventDto<R extends EventRow, X extends Record<string, unknown> = Record<never, never>>(r: R, extra?: X) {
  return { id: r.id, kind: r.kind as R["kind"], ...(extra as X), actorId: r.actorId, recordedAt: r.recordedAt, reason: r.reason, data: r.data };
}
