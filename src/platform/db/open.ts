// Chooses the driver by URL: `file:` on bun:sqlite, everything else on @libsql/client.
import { BunSqliteDatabase } from "./bun-sqlite.ts";
import { LibsqlDatabase } from "./libsql.ts";
import { isRemoteUrl, type SqlDatabase } from "./database.ts";

export function openDatabase<S extends Record<string, unknown>>(url: string, schema: S, authToken?: string): SqlDatabase<S> {
  return isRemoteUrl(url) ? new LibsqlDatabase(url, schema, authToken) : new BunSqliteDatabase(url, schema);
}
