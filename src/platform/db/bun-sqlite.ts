// Local database files on Bun's SQLite. Two connections per file: a writer (WAL,
// synchronous=NORMAL, foreign keys, busy timeout) used only inside transaction()
// under the caller's write lock, opened on the first write, and a query_only reader,
// so a read never sees uncommitted rows. Statements are prepared once per connection
// and reused.
//
// The file's own write lock can be held by another process (a second instance, the
// CLI, an operator's shell). SQLite's busy handler would wait for it by sleeping the
// thread, and with it this process's whole event loop, every partner's requests and
// jobs included; so BEGIN IMMEDIATE runs without it and waits for its turn
// asynchronously: as long as the busy timeout allows (then SQLITE_BUSY, the file
// cannot serve, as before) and the caller's lock deadline (then LockTimeoutError).
//
// bun:sqlite runs every statement synchronously, which is what makes the read
// snapshot cheap and exact: BEGIN, the queries and COMMIT on the reader happen in
// one turn of the event loop, so no other request can interleave on it.
//
// Every statement runs through a guard that turns SQLite saying the file cannot
// serve (locked past the busy timeout, I/O error, corrupt, not a database, disk
// full) into a DatabaseUnavailableError (./unavailable.ts); SQL errors stay as they are.
import { Database, type Statement } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync } from "node:fs";
import {
  isMemoised,
  localFilePath,
  type MigrationSet,
  type Querier,
  type SnapshotQuery,
  type SqlDatabase,
} from "./database.ts";
import { installFastRows } from "./fast-rows.ts";
import { APPLIED_MIGRATIONS_SQL, HAS_MIGRATIONS_TABLE_SQL, latestMigrationMillis, migrationsFolder } from "./migrations.ts";
import { classifyDriverError, type DatabaseName } from "./unavailable.ts";
import { LockTimeoutError } from "../tenancy/write-lock.ts";

installFastRows();

export const BUSY_TIMEOUT_MS = 5000;
/** Distinct statements kept prepared per connection (IN lists of many lengths make more). */
const STATEMENT_CACHE_SIZE = 512;
/** Memoised snapshot results kept per database (exact totals of lists). */
const MEMO_SIZE = 1024;

export const WRITER_PRAGMAS = [
  "PRAGMA journal_mode=WAL",
  "PRAGMA synchronous=NORMAL",
  `PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`,
  "PRAGMA foreign_keys=ON",
];
// user_version reads the file's header (not its schema): a file that is no database fails at open, as the writer's WAL pragma made it.
export const READER_PRAGMAS = [`PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`, "PRAGMA foreign_keys=ON", "PRAGMA query_only=1", "PRAGMA user_version"];
/**
 * Page size of a database file this process creates (before its first table; an
 * existing file keeps its own). Measured on a partner (issue 22): every write commits
 * each page it dirtied to the WAL, one per index touched, so 2 KiB pages cut a
 * POST /assets transaction's CPU by about a fifth and an empty partner's file by
 * about half, while a 50-row page of 10,000 items with its counts costs about 10 %
 * more; 1 KiB pages doubled that read and overflowed the idempotency and outbox rows.
 */
export const NEW_FILE_PAGE_SIZE = 2048;

type Param = string | number | bigint | boolean | null | Uint8Array;

/** One statement run on a bun:sqlite connection, as the debug statement log sees it. */
export interface LoggedStatement {
  database: DatabaseName;
  connection: "reader" | "writer";
  sql: string;
  params: readonly unknown[];
}

/**
 * Debug seam for the bench and its reference-honesty test (never set in production):
 * while set, every statement a cached connection statement runs is reported here
 * before it runs. `setStatementLog(undefined)` turns it off.
 */
let statementLog: ((s: LoggedStatement) => void) | undefined;
export function setStatementLog(fn: ((s: LoggedStatement) => void) | undefined): void {
  statementLog = fn;
}

/** Pauses between attempts at the file's write lock while another process holds it (ms; the last repeats). */
const LOCK_POLL_MS = [1, 2, 4, 8, 15, 25];

/** SQLITE_BUSY (or an extended BUSY code) somewhere along the cause chain. */
function isBusy(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 8 && typeof cur === "object" && cur !== null; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `begin` (a BEGIN IMMEDIATE on a connection whose busy timeout is off) until no other
 * process holds the file's write lock, pausing asynchronously between attempts (LOCK_POLL_MS)
 * instead of sleeping the thread in SQLite's busy handler. Past `until` (the caller's lock
 * wait, epoch ms) it is LockTimeoutError; past BUSY_TIMEOUT_MS, the busy error itself.
 * The bench's reference waits the same way (scripts/bench/reference.ts).
 */
export async function beginWhenFree(begin: () => void, until = Infinity): Promise<void> {
  const busyUntil = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      begin();
      return;
    } catch (err) {
      if (!isBusy(err)) throw err;
      const now = Date.now();
      // No `cause`: a DatabaseUnavailableError along the chain would be answered as an outage.
      if (now >= until && until < busyUntil) throw new LockTimeoutError("the database file's write lock is held by another process past the lock wait limit");
      if (now >= busyUntil) throw err;
      await Bun.sleep(LOCK_POLL_MS[Math.min(attempt, LOCK_POLL_MS.length - 1)]!);
    }
  }
}

/** Runs one synchronous driver call, classifying what it throws (see ./unavailable.ts). */
function guard<T>(name: DatabaseName, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw classifyDriverError(name, err);
  }
}

/**
 * A statement as Drizzle's bun-sqlite session uses it (run/all/values), with run()
 * reporting `rowsAffected` like libSQL does. If the cache dropped (and finalized)
 * the underlying statement, the next use prepares it again.
 */
class CachedStatement {
  stmt: Statement | undefined;
  constructor(
    readonly cache: StatementCache,
    readonly sql: string,
  ) {}
  #live(params: Param[]): Statement {
    if (statementLog) statementLog({ database: this.cache.name, connection: this.cache.connection, sql: this.sql, params });
    return this.stmt ?? this.cache.revive(this);
  }
  // The hot path: try/catch inline rather than a closure per statement.
  run(...params: Param[]) {
    try {
      const r = this.#live(params).run(...params);
      return { rowsAffected: r.changes, lastInsertRowid: r.lastInsertRowid };
    } catch (err) {
      throw classifyDriverError(this.cache.name, err);
    }
  }
  all(...params: Param[]) {
    try {
      return this.#live(params).all(...params);
    } catch (err) {
      throw classifyDriverError(this.cache.name, err);
    }
  }
  get(...params: Param[]) {
    try {
      return this.#live(params).get(...params);
    } catch (err) {
      throw classifyDriverError(this.cache.name, err);
    }
  }
  values(...params: Param[]) {
    try {
      return this.#live(params).values(...params);
    } catch (err) {
      throw classifyDriverError(this.cache.name, err);
    }
  }
}

/**
 * A statement prepared for one use and finalized after it. EXPLAIN statements go
 * this way: a cached EXPLAIN QUERY PLAN statement kept the reader's snapshot open
 * after it ran, so later reads on that connection saw old data (a test reproduces it).
 */
class OneShotStatement {
  constructor(
    readonly conn: Database,
    readonly sql: string,
    readonly name: DatabaseName,
  ) {}
  #once<T>(fn: (s: Statement) => T): T {
    return guard(this.name, () => {
      const stmt = this.conn.prepare(this.sql);
      try {
        return fn(stmt);
      } finally {
        stmt.finalize();
      }
    });
  }
  run(...params: Param[]) {
    const r = this.#once((s) => s.run(...params));
    return { rowsAffected: r.changes, lastInsertRowid: r.lastInsertRowid };
  }
  all(...params: Param[]) {
    return this.#once((s) => s.all(...params));
  }
  get(...params: Param[]) {
    return this.#once((s) => s.get(...params));
  }
  values(...params: Param[]) {
    return this.#once((s) => s.values(...params));
  }
}

const EXPLAIN_RE = /^\s*EXPLAIN\b/i;

/** LRU of prepared statements by SQL text, presented to Drizzle as its client. */
class StatementCache {
  #byText = new Map<string, CachedStatement>();
  constructor(
    readonly conn: Database,
    readonly name: DatabaseName,
    readonly connection: "reader" | "writer",
  ) {}

  prepare(sql: string): CachedStatement | OneShotStatement {
    if (EXPLAIN_RE.test(sql)) return new OneShotStatement(this.conn, sql, this.name);
    const hit = this.#byText.get(sql);
    if (hit?.stmt) return hit;
    const entry = hit ?? new CachedStatement(this, sql);
    guard(this.name, () => this.revive(entry));
    return entry;
  }

  revive(entry: CachedStatement): Statement {
    entry.stmt = this.conn.prepare(entry.sql);
    this.#byText.set(entry.sql, entry);
    if (this.#byText.size > STATEMENT_CACHE_SIZE) {
      // Map order is insertion order: the first entry is the least recently prepared.
      const [text, old] = this.#byText.entries().next().value as [string, CachedStatement];
      this.#byText.delete(text);
      old.stmt?.finalize();
      old.stmt = undefined;
    }
    return entry.stmt;
  }

  exec(sql: string): void {
    guard(this.name, () => this.conn.run(sql));
  }

  /** Drizzle's own transaction() would commit before an async callback finished. */
  transaction(): never {
    throw new Error("use SqlDatabase.transaction(), not Drizzle's, on bun:sqlite");
  }
}

function connect(path: string, pragmas: string[], name: DatabaseName): Database {
  return guard(name, () => {
    const conn = new Database(path, { create: true, readwrite: true });
    try {
      for (const p of pragmas) conn.run(p);
    } catch (err) {
      conn.close(false);
      throw err;
    }
    return conn;
  });
}

export class BunSqliteDatabase<S extends Record<string, unknown>> implements SqlDatabase<S> {
  readonly read: Querier<S>;
  /**
   * The writer is opened on the first write (or migration), not with the database: a
   * partner opened for reads (most requests, a job's "anything due?" probe) pays one
   * connection, and each connection parses the whole schema (about 1.2 ms of CPU and
   * 0.4 MB for a partner's 460 tables, indexes and triggers). A new file opens it at once.
   */
  #writerSide: { conn: Database; cache: StatementCache; q: Querier<S> } | undefined;
  readonly #path: string;
  readonly #reader: Database;
  readonly #readerCache: StatementCache;
  /** Tells this connection's data versions apart from an earlier open of the same file. */
  readonly #epoch = randomBytes(6).toString("base64url");
  readonly #memo = new Map<string, { version: number; value: unknown }>();
  /**
   * The data version and peeked counters as read in this event-loop turn. Under load
   * each read is a read transaction with shared-memory locking, costly enough to
   * halve 304 throughput if every request paid it; requests handled in one turn
   * share one read instead, so they see the database as of that turn's first read.
   * A commit through this writer clears it at once (read-your-writes); another
   * process's commit is seen from the next turn on.
   */
  #turn: { version?: number; peeks: Map<string, unknown> } | undefined;
  #closed = false;

  constructor(
    readonly url: string,
    readonly schema: S,
    readonly name: DatabaseName,
  ) {
    const path = (this.#path = localFilePath(url));
    const fresh = !existsSync(path);
    if (fresh) {
      this.#openWriter(true);
      // Partner data is readable by the service user only.
      for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
    }
    try {
      this.#reader = connect(path, READER_PRAGMAS, name);
    } catch (err) {
      this.#writerSide?.conn.close(false);
      throw err;
    }
    this.#readerCache = new StatementCache(this.#reader, name, "reader");
    // Drizzle forces the casts: its bun:sqlite driver takes a Database (the cache stands in for one, statements
    // kept) and is typed sync, while every querier here is used through the async interface both drivers share.
    this.read = drizzle(this.#readerCache as unknown as Database, { schema }) as unknown as Querier<S>;
  }

  #openWriter(fresh = false): { conn: Database; cache: StatementCache; q: Querier<S> } {
    if (this.#writerSide) return this.#writerSide;
    if (this.#closed) throw new Error("database closed");
    const conn = connect(this.#path, fresh ? [`PRAGMA page_size=${NEW_FILE_PAGE_SIZE}`, ...WRITER_PRAGMAS] : WRITER_PRAGMAS, this.name);
    const cache = new StatementCache(conn, this.name, "writer");
    // The same cast as the reader's (see the constructor).
    const q = drizzle(cache as unknown as Database, { schema: this.schema }) as unknown as Querier<S>;
    return (this.#writerSide = { conn, cache, q });
  }

  async transaction<T>(fn: (tx: Querier<S>) => Promise<T>, opts: { lockWaitUntil?: number } = {}): Promise<T> {
    const writer = this.#openWriter();
    const w = writer.cache;
    await this.#beginImmediate(opts.lockWaitUntil ?? Date.now() + BUSY_TIMEOUT_MS);
    try {
      const result = await fn(writer.q);
      w.prepare("COMMIT").run();
      this.#turn = undefined;
      return result;
    } catch (err) {
      // A failed COMMIT leaves the transaction open too; either way nothing is kept.
      if (writer.conn.inTransaction) {
        try {
          w.prepare("ROLLBACK").run();
        } catch {
          // SQLite already rolled back (an I/O error can do that); the first error says why.
        }
      }
      throw err;
    }
  }

  /**
   * BEGIN IMMEDIATE with the busy handler off: while another process holds the file's
   * write lock it fails at once with SQLITE_BUSY, and the attempt is repeated after a
   * short asynchronous pause. It gives up when the busy timeout has passed (the
   * SQLITE_BUSY error, classified unavailable, as the busy handler would have ended) or
   * at the caller's deadline `until` if that comes first (LockTimeoutError, as for the
   * in-process lock); nothing was begun either way. The busy timeout is back for
   * everything else (migrations) once it returns.
   */
  async #beginImmediate(until: number): Promise<void> {
    const w = this.#openWriter().cache;
    w.prepare("PRAGMA busy_timeout=0").run();
    try {
      await beginWhenFree(() => w.prepare("BEGIN IMMEDIATE").run(), until);
    } finally {
      w.prepare(`PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`).run();
    }
  }

  #currentTurn(): { version?: number; peeks: Map<string, unknown> } {
    let turn = this.#turn;
    if (!turn) {
      const fresh = { peeks: new Map<string, unknown>() };
      turn = this.#turn = fresh;
      setImmediate(() => {
        if (this.#turn === fresh) this.#turn = undefined;
      });
    }
    return turn;
  }

  dataVersion(): string {
    const turn = this.#currentTurn();
    turn.version ??= this.#version();
    return `${this.#epoch}.${turn.version}`;
  }

  peek(sql: string): unknown {
    const turn = this.#currentTurn();
    if (turn.peeks.has(sql)) return turn.peeks.get(sql);
    const value = this.#readerCache.prepare(sql).values()[0]?.[0];
    turn.peeks.set(sql, value);
    return value;
  }

  #version(): number {
    return (this.#readerCache.prepare("PRAGMA data_version").values()[0]![0] as number) ?? 0;
  }

  async snapshot<const T extends readonly unknown[]>(queries: { [K in keyof T]: SnapshotQuery<T[K]> }): Promise<T> {
    const r = this.#readerCache;
    const list: ReadonlyArray<SnapshotQuery<unknown>> = queries;
    const out: Array<Promise<unknown> | { value: unknown }> = new Array(list.length);
    r.prepare("BEGIN").run();
    try {
      // Plain queries first: the first read fixes the snapshot, and the data
      // version read after it is the one the snapshot sees.
      for (let i = 0; i < list.length; i++) if (!isMemoised(list[i]!)) out[i] = runNow(list[i] as PromiseLike<unknown>);
      let version: number | undefined;
      for (let i = 0; i < list.length; i++) {
        const q = list[i]!;
        if (!isMemoised(q)) continue;
        version ??= this.#version();
        const hit = this.#memo.get(q.memo);
        if (hit && hit.version === version) {
          out[i] = { value: hit.value };
          continue;
        }
        const p = runNow(q.query);
        out[i] = p;
        const v = version;
        p.then(
          (value) => this.#remember(q.memo, v, value),
          () => {},
        );
      }
    } finally {
      r.prepare("COMMIT").run();
    }
    // Each query's rows in order, so T; TypeScript forces the cast (a generic tuple cannot be built up from its elements).
    return (await Promise.all(out.map((o) => (o instanceof Promise ? o : o.value)))) as unknown as T;
  }

  #remember(key: string, version: number, value: unknown): void {
    this.#memo.delete(key);
    this.#memo.set(key, { version, value });
    if (this.#memo.size > MEMO_SIZE) this.#memo.delete(this.#memo.keys().next().value as string);
  }

  async rawRead(sql: string, args: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    return guard(this.name, () => {
      const stmt = this.#reader.prepare(sql);
      try {
        return stmt.all(...(args as Param[])) as Array<Record<string, unknown>>;
      } finally {
        stmt.finalize();
      }
    });
  }

  /** Read on the reader: an up-to-date partner is opened without its writer. */
  async appliedMigrationMillis(): Promise<number> {
    const w = this.#readerCache;
    if (w.prepare(HAS_MIGRATIONS_TABLE_SQL).all().length === 0) return 0;
    const row = w.prepare(APPLIED_MIGRATIONS_SQL).get() as { m: number | null } | null;
    return Number(row?.m ?? 0);
  }

  async migrate(set: MigrationSet): Promise<boolean> {
    if ((await this.appliedMigrationMillis()) >= latestMigrationMillis(set)) return false;
    // An uncached Drizzle instance: migration DDL is run once and must not fill the cache.
    const writer = this.#openWriter().conn;
    guard(this.name, () => migrate(drizzle(writer), { migrationsFolder: migrationsFolder(set) }));
    return true;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // close(true) finalizes every statement and releases the file at once.
    for (const c of this.#writerSide ? [this.#reader, this.#writerSide.conn] : [this.#reader]) {
      try {
        c.close(true);
      } catch {
        c.close(false);
      }
    }
  }
}

/**
 * Starts a Drizzle query now. On bun:sqlite the statement runs synchronously inside
 * execute(), so by the time this returns the rows are read.
 */
function runNow(q: PromiseLike<unknown>): Promise<unknown> {
  const exec = (q as { execute?: () => Promise<unknown> }).execute;
  if (typeof exec !== "function") throw new TypeError("snapshot() takes Drizzle queries built on the reader");
  return exec.call(q);
}
