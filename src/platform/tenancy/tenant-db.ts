// Opening libSQL databases the way every writer and reader here needs them.
//
// The local @libsql/client is a pool; a PRAGMA reaches only the connection it ran
// on and a fresh connection starts with synchronous=FULL and no busy timeout. So a
// local database gets two single-connection clients: one writer (used only inside
// withTx, under the partner's write lock) and one reader (query_only, so it can
// never write and never sees the writer's uncommitted rows). Both are configured
// once when opened and again if a failed transaction may have replaced the
// connection.
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate } from "drizzle-orm/libsql/migrator";
import { join } from "node:path";

export const BUSY_TIMEOUT_MS = 5000;
const MIGRATIONS_ROOT = join(import.meta.dir, "../../../migrations");

export type Db<S extends Record<string, unknown>> = LibSQLDatabase<S>;

export interface DbPair<S extends Record<string, unknown>> {
  url: string;
  remote: boolean;
  read: Db<S>;
  write: Db<S>;
  readClient: Client;
  writeClient: Client;
  /** Re-applies connection pragmas; called after a failed write transaction. */
  reconfigure(): Promise<void>;
  close(): void;
}

const WRITER_PRAGMAS = [
  "PRAGMA journal_mode=WAL",
  "PRAGMA synchronous=NORMAL",
  `PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`,
  "PRAGMA foreign_keys=ON",
];
const READER_PRAGMAS = [`PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`, "PRAGMA foreign_keys=ON", "PRAGMA query_only=1"];

async function applyPragmas(client: Client, pragmas: string[]): Promise<void> {
  for (const p of pragmas) await client.execute(p);
}

export async function openDbPair<S extends Record<string, unknown>>(
  url: string,
  schema: S,
  authToken?: string,
): Promise<DbPair<S>> {
  const remote = !url.startsWith("file:");
  if (remote) {
    // A libSQL server / Turso: one client; withTx uses its interactive transactions.
    const client = createClient({ url, authToken });
    const db = drizzle(client, { schema });
    return {
      url,
      remote,
      read: db,
      write: db,
      readClient: client,
      writeClient: client,
      reconfigure: async () => {},
      close: () => client.close(),
    };
  }
  const writeClient = createClient({ url, concurrency: 1 });
  await applyPragmas(writeClient, WRITER_PRAGMAS);
  const readClient = createClient({ url, concurrency: 1 });
  await applyPragmas(readClient, READER_PRAGMAS);
  return {
    url,
    remote,
    read: drizzle(readClient, { schema }),
    write: drizzle(writeClient, { schema }),
    readClient,
    writeClient,
    reconfigure: async () => {
      await applyPragmas(writeClient, WRITER_PRAGMAS);
      await applyPragmas(readClient, READER_PRAGMAS);
    },
    close: () => {
      readClient.close();
      writeClient.close();
    },
  };
}

/** Migration sets: `tenant` for partner databases, `registry` for the registry. */
export type MigrationSet = "tenant" | "registry";

const latestCache = new Map<MigrationSet, number>();
export function latestMigrationMillis(set: MigrationSet): number {
  let v = latestCache.get(set);
  if (v === undefined) {
    const files = readMigrationFiles({ migrationsFolder: join(MIGRATIONS_ROOT, set) });
    v = files.reduce((m, f) => Math.max(m, f.folderMillis), 0);
    latestCache.set(set, v);
  }
  return v;
}

/** Applied migration watermark, or 0 on a database never migrated. */
export async function appliedMigrationMillis(client: Client): Promise<number> {
  const t = await client.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='__drizzle_migrations'");
  if (t.rows.length === 0) return 0;
  const r = await client.execute("SELECT max(created_at) AS m FROM __drizzle_migrations");
  return Number(r.rows[0]?.m ?? 0);
}

/** Applies pending migrations through the writer; returns how many sets were behind. */
export async function migrateIfBehind<S extends Record<string, unknown>>(pair: DbPair<S>, set: MigrationSet): Promise<boolean> {
  const applied = await appliedMigrationMillis(pair.writeClient);
  if (applied >= latestMigrationMillis(set)) return false;
  await migrate(pair.write, { migrationsFolder: join(MIGRATIONS_ROOT, set) });
  return true;
}
