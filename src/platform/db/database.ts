// One seam over the two SQLite drivers. A `file:` URL opens with Bun's SQLite
// (bun:sqlite, statements prepared once per connection and reused); libSQL
// servers and Turso (`libsql:`, `http(s):`, `ws(s):`) use @libsql/client. Services
// see only `Querier` and the functions below, never which driver runs.
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { SQL } from "drizzle-orm";

/** What a write statement reports on either driver. */
export interface RunResult {
  rowsAffected: number;
}

/**
 * Anything a service can query: a reader or the open write transaction. Typed as
 * Drizzle's async flavour; on bun:sqlite the builders run synchronously when
 * awaited, which `await` cannot tell apart.
 */
export type Querier<S extends Record<string, unknown> = Record<string, unknown>> = BaseSQLiteDatabase<"async", RunResult, S>;

/** A query of a read snapshot whose result may be reused while the database is unchanged. */
export interface Memoised<T> {
  memo: string;
  query: PromiseLike<T>;
}

export type SnapshotQuery<T> = PromiseLike<T> | Memoised<T>;

export type MigrationSet = "tenant" | "registry";

export interface SqlDatabase<S extends Record<string, unknown>> {
  readonly url: string;
  /** Committed data only: never sees an open transaction's rows, never writes. */
  readonly read: Querier<S>;
  /**
   * One write transaction (BEGIN IMMEDIATE … COMMIT). Callers serialise writers
   * (the partner's write lock); any error rolls back and the connection stays usable.
   * Another process holding a local file's write lock is waited for without blocking
   * the event loop until `lockWaitUntil` (epoch ms; default the busy timeout), then
   * LockTimeoutError; a libSQL server waits on its own terms.
   */
  transaction<T>(fn: (tx: Querier<S>) => Promise<T>, opts?: { lockWaitUntil?: number }): Promise<T>;
  /**
   * Runs queries built on `read` in one read transaction, so they agree. A
   * `Memoised` query's result is reused while `dataVersion()` is unchanged.
   */
  snapshot<const T extends readonly unknown[]>(queries: { [K in keyof T]: SnapshotQuery<T[K]> }): Promise<T>;
  /**
   * Changes exactly when any connection, in this process or another, has committed
   * to the database. Read at most once per event-loop turn: a commit through this
   * database's own writer shows at once, another process's from the next turn.
   * Undefined where freshness cannot be proven (a remote server), which turns
   * caching and conditional reads off.
   */
  dataVersion(): string | undefined;
  /**
   * The first column of the first row of a constant query on the reader (at most
   * once per event-loop turn, like dataVersion); undefined where that would need a
   * round trip (remote).
   */
  peek(sql: string): unknown;
  /** Plain SQL on the reader (tests, EXPLAIN QUERY PLAN). */
  rawRead(sql: string, args?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Applies pending migrations of the set through the writer; true when any ran. */
  migrate(set: MigrationSet): Promise<boolean>;
  /** Watermark of applied migrations (0 on a database never migrated). */
  appliedMigrationMillis(): Promise<number>;
  close(): void;
}

export function isRemoteUrl(url: string): boolean {
  return !url.startsWith("file:");
}

/** The file a `file:` URL names (without any `?` options). */
export function localFilePath(url: string): string {
  const path = url.slice("file:".length);
  const q = path.indexOf("?");
  return q >= 0 ? path.slice(0, q) : path;
}

export function isMemoised<T>(q: SnapshotQuery<T>): q is Memoised<T> {
  return typeof (q as Memoised<T>).memo === "string" && "query" in q;
}

/**
 * A raw SQL SELECT that runs when awaited or when a snapshot runs it, on either
 * driver (on bun:sqlite Drizzle's `all(sql)` would run at once, outside the snapshot).
 */
export function lazyAll<T>(q: Querier<never> | Querier<Record<string, unknown>>, query: SQL): PromiseLike<T[]> & { toSQL(): { sql: string; params: unknown[] } } {
  // Drizzle forces the cast: resultKind, dialect and all(sql) are internal to its session (not in its types).
  const dbq = q as unknown as { resultKind: string; dialect: { sqlToQuery(s: SQL): { sql: string; params: unknown[] } }; all<R>(s: SQL): unknown };
  const toSQL = () => dbq.dialect.sqlToQuery(query);
  if (dbq.resultKind === "async") return Object.assign(dbq.all<T>(query) as PromiseLike<T[]>, { toSQL });
  const execute = async () => dbq.all<T>(query) as T[];
  return {
    execute,
    toSQL,
    then: (onfulfilled, onrejected) => execute().then(onfulfilled, onrejected),
  } as PromiseLike<T[]> & { toSQL(): { sql: string; params: unknown[] } };
}

/** The SQL and parameters of a Drizzle query, as a memo key; undefined when it cannot tell. */
export function queryKey(q: unknown): string | undefined {
  const toSQL = (q as { toSQL?: () => { sql: string; params: unknown[] } }).toSQL;
  if (typeof toSQL !== "function") return undefined;
  const { sql, params } = toSQL.call(q);
  return `${sql}\u0000${JSON.stringify(params)}`;
}
