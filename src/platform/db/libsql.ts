// Databases on a libSQL server or Turso through @libsql/client: one client whose
// interactive transactions carry the writes and whose batches are read snapshots.
// A remote database cannot prove that nothing changed since a given moment, so it
// reports no data version and nothing is memoised. Every call into the client goes
// through one guard that turns a failure of the server (unreachable, 5xx, expired
// stream, locked or corrupt) into a DatabaseUnavailableError (./unavailable.ts).
// The client has no timeout of its own: a server that accepts the connection and
// never answers would hold a request forever. So every call is bounded
// (LIBSQL_REQUEST_TIMEOUT_MS): over HTTP each request the client sends is aborted
// when its time is up, and every call (over HTTP or a WebSocket) is given up then;
// either way it ends as a DatabaseUnavailableError "timed out after N ms".
import { createClient, type Client, type InValue, type Transaction } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { isMemoised, type MigrationSet, type Querier, type SnapshotQuery, type SqlDatabase } from "./database.ts";
import { APPLIED_MIGRATIONS_SQL, HAS_MIGRATIONS_TABLE_SQL, latestMigrationMillis, migrationsFolder } from "./migrations.ts";
import { classifyDriverError, DatabaseUnavailableError, type DatabaseName } from "./unavailable.ts";

/** How long one call into a libSQL server may take when LIBSQL_REQUEST_TIMEOUT_MS is not set. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5000;

/**
 * The object with every method's failure classified: a rejected promise (or a throw)
 * carries a DatabaseUnavailableError when the server is unavailable, else the
 * driver's own error. Transactions the client opens are guarded the same way.
 */
function guarded<T extends object>(target: T, name: DatabaseName, timeoutMs: number): T {
  const rethrow = (err: unknown): never => {
    throw classifyDriverError(name, err);
  };
  return new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop, t);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(t, args);
        } catch (err) {
          return rethrow(err);
        }
        if (!(out instanceof Promise)) return out;
        const bounded = withDeadline(out, name, timeoutMs);
        return prop === "transaction" ? bounded.then((tx: Transaction) => guarded(tx, name, timeoutMs), rethrow) : bounded.catch(rethrow);
      };
    },
  });
}

/** The error a call that ran out of time ends with. */
function timedOut(name: DatabaseName, timeoutMs: number): DatabaseUnavailableError {
  return new DatabaseUnavailableError(name, `timed out after ${timeoutMs} ms`);
}

/** `call`, or a DatabaseUnavailableError once `timeoutMs` pass first (a late outcome of `call` is dropped). */
function withDeadline<T>(call: Promise<T>, name: DatabaseName, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(name, timeoutMs)), timeoutMs);
  });
  call.catch(() => undefined);
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The client's fetch: each HTTP request (and the reading of its answer) is aborted
 * after `timeoutMs`, with the DatabaseUnavailableError as the abort's reason.
 */
function fetchWithin(name: DatabaseName, timeoutMs: number): typeof fetch {
  const bounded = (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timedOut(name, timeoutMs)), timeoutMs);
    return fetch(input, { ...init, signal: controller.signal }).then(
      async (res) => {
        // The body is read under the same bound: the answer is buffered before the timer stops.
        try {
          const body = await res.arrayBuffer();
          return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
        } catch (err) {
          throw controller.signal.aborted ? controller.signal.reason : err;
        } finally {
          clearTimeout(timer);
        }
      },
      (err: unknown) => {
        clearTimeout(timer);
        throw controller.signal.aborted ? controller.signal.reason : err;
      },
    );
  };
  return bounded as typeof fetch;
}

export class LibsqlDatabase<S extends Record<string, unknown>> implements SqlDatabase<S> {
  readonly read: Querier<S>;
  readonly #client: Client;
  readonly #db: LibSQLDatabase<S>;

  constructor(
    readonly url: string,
    schema: S,
    opts: { authToken?: string; name: DatabaseName; requestTimeoutMs?: number },
  ) {
    const timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#client = guarded(createClient({ url, authToken: opts.authToken, fetch: fetchWithin(opts.name, timeoutMs) }), opts.name, timeoutMs);
    this.#db = drizzle(this.#client, { schema });
    this.read = this.#db;
  }

  transaction<T>(fn: (tx: Querier<S>) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => fn(tx));
  }

  dataVersion(): undefined {
    return undefined;
  }

  peek(): undefined {
    return undefined;
  }

  async snapshot<const T extends readonly unknown[]>(queries: { [K in keyof T]: SnapshotQuery<T[K]> }): Promise<T> {
    const queryList: ReadonlyArray<SnapshotQuery<unknown>> = queries;
    const list = queryList.map((q) => (isMemoised(q) ? q.query : q));
    // TypeScript forces the cast: no queries, no rows (T is the empty tuple).
    if (list.length === 0) return [] as unknown as T;
    // One batch is one read transaction on the server.
    return (await this.#db.batch(list as never)) as T;
  }

  async rawRead(sql: string, args: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    const rs = await this.#client.execute({ sql, args: args as InValue[] });
    return rs.rows.map((r) => Object.fromEntries(rs.columns.map((c, i) => [c, r[i]])));
  }

  async appliedMigrationMillis(): Promise<number> {
    if ((await this.#client.execute(HAS_MIGRATIONS_TABLE_SQL)).rows.length === 0) return 0;
    return Number((await this.#client.execute(APPLIED_MIGRATIONS_SQL)).rows[0]?.m ?? 0);
  }

  async migrate(set: MigrationSet): Promise<boolean> {
    const latest = latestMigrationMillis(set);
    if ((await this.appliedMigrationMillis()) >= latest) return false;
    try {
      await migrate(this.#db, { migrationsFolder: migrationsFolder(set) });
    } catch (err) {
      // Another instance sharing this database applied them first: its batch took the
      // write lock, ours (one transaction) then failed and rolled back whole.
      if ((await this.appliedMigrationMillis().catch(() => 0)) >= latest) return false;
      throw err;
    }
    return true;
  }

  close(): void {
    this.#client.close();
  }
}
