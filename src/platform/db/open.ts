// Chooses the driver by URL: `file:` on bun:sqlite, everything else on @libsql/client.
import { BunSqliteDatabase } from "./bun-sqlite.ts";
import { LibsqlDatabase } from "./libsql.ts";
import { isRemoteUrl, type SqlDatabase } from "./database.ts";
import type { DatabaseName } from "./unavailable.ts";

/**
 * `name` says whose database it is, for the DatabaseUnavailableError its failures become;
 * `requestTimeoutMs` bounds each call into a libSQL server (LIBSQL_REQUEST_TIMEOUT_MS).
 */
export function openDatabase<S extends Record<string, unknown>>(
  url: string,
  schema: S,
  opts: { authToken?: string; name: DatabaseName; requestTimeoutMs?: number },
): SqlDatabase<S> {
  return isRemoteUrl(url) ? new LibsqlDatabase(url, schema, opts) : new BunSqliteDatabase(url, schema, opts.name);
}
