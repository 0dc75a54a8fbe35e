// Databases on a libSQL server or Turso through @libsql/client: one client whose
// interactive transactions carry the writes and whose batches are read snapshots.
// A remote database cannot prove that nothing changed since a given moment, so it
// reports no data version and nothing is memoised.
import { createClient, type Client, type InValue } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { isMemoised, type MigrationSet, type Querier, type SnapshotQuery, type SqlDatabase } from "./database.ts";
import { APPLIED_MIGRATIONS_SQL, HAS_MIGRATIONS_TABLE_SQL, latestMigrationMillis, migrationsFolder } from "./migrations.ts";

export class LibsqlDatabase<S extends Record<string, unknown>> implements SqlDatabase<S> {
  readonly read: Querier<S>;
  readonly #client: Client;
  readonly #db: LibSQLDatabase<S>;

  constructor(
    readonly url: string,
    schema: S,
    authToken?: string,
  ) {
    this.#client = createClient({ url, authToken });
    this.#db = drizzle(this.#client, { schema });
    this.read = this.#db as unknown as Querier<S>;
  }

  transaction<T>(fn: (tx: Querier<S>) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => fn(tx as unknown as Querier<S>));
  }

  dataVersion(): undefined {
    return undefined;
  }

  peek(): undefined {
    return undefined;
  }

  async snapshot<const T extends readonly unknown[]>(queries: { [K in keyof T]: SnapshotQuery<T[K]> }): Promise<T> {
    const list = (queries as unknown as ReadonlyArray<SnapshotQuery<unknown>>).map((q) => (isMemoised(q) ? q.query : q));
    if (list.length === 0) return [] as unknown as T;
    // One batch is one read transaction on the server.
    return (await this.#db.batch(list as never)) as unknown as T;
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
    if ((await this.appliedMigrationMillis()) >= latestMigrationMillis(set)) return false;
    await migrate(this.#db, { migrationsFolder: migrationsFolder(set) });
    return true;
  }

  close(): void {
    this.#client.close();
  }
}
