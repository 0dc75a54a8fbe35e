// Row mapping for Drizzle's bun:sqlite driver. Drizzle's generic mapResultRow
// works out each cell's decoder with prototype-walking type checks and iterates
// the field path, per cell: on a 50-row page of 24 columns that cost more than
// SQLite reading the rows. For flat selections (every field a top-level key, which
// is what select() from one table and most projections produce) the decoders are
// resolved once per query here and the rows mapped in a plain loop; nested
// selections, joins and relational queries keep Drizzle's own mapper. A test
// compares both mappers on real rows (test/platform/fast-rows.test.ts).
import { PreparedQuery } from "drizzle-orm/bun-sqlite/session";
import { Column, SQL, is } from "drizzle-orm";
import { Subquery } from "drizzle-orm";

interface DriverDecoder {
  mapFromDriverValue(value: unknown): unknown;
}
interface SelectedField {
  path: string[];
  field: unknown;
}
type Mapper = (row: unknown[]) => Record<string, unknown>;

function decoderOf(field: unknown): DriverDecoder {
  if (is(field, Column)) return field;
  // `decoder` is Drizzle-internal (Drizzle forces the casts); the reads below mirror its mapResultRow.
  type WithDecoder = { decoder: DriverDecoder };
  if (is(field, SQL)) return (field as unknown as WithDecoder).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder;
  return (field as { sql: WithDecoder }).sql.decoder;
}

/** A mapper for a flat selection, or undefined when Drizzle's own must run. */
export function flatMapper(fields: SelectedField[] | undefined): Mapper | undefined {
  if (!fields || fields.length === 0) return undefined;
  const keys: string[] = [];
  const decoders: DriverDecoder[] = [];
  for (const f of fields) {
    if (f.path.length !== 1) return undefined;
    keys.push(f.path[0]!);
    decoders.push(decoderOf(f.field));
  }
  const n = keys.length;
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const raw = row[i];
      out[keys[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
    }
    return out;
  };
}

interface BunPreparedQuery {
  fields?: SelectedField[];
  customResultMapper?: unknown;
  values(placeholderValues?: Record<string, unknown>): unknown[][];
  all(placeholderValues?: Record<string, unknown>): unknown;
  get(placeholderValues?: Record<string, unknown>): unknown;
}

// Drizzle forces the cast: these members of its bun:sqlite PreparedQuery are internal (not in its types).
const proto = PreparedQuery.prototype as unknown as BunPreparedQuery;
const drizzleAll = proto.all;
const drizzleGet = proto.get;

/** Drizzle's own row mapping, for comparison in tests. */
export const drizzleMappers = { all: drizzleAll, get: drizzleGet };

let installed = false;

/** Installs the flat-row mapper on Drizzle's bun:sqlite prepared queries (once). */
export function installFastRows(): void {
  if (installed) return;
  installed = true;
  proto.all = function (this: BunPreparedQuery, placeholderValues) {
    const map = this.customResultMapper ? undefined : flatMapper(this.fields);
    if (!map) return drizzleAll.call(this, placeholderValues);
    const rows = this.values(placeholderValues);
    const out = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = map(rows[i]!);
    return out;
  };
  proto.get = function (this: BunPreparedQuery, placeholderValues) {
    const map = this.customResultMapper ? undefined : flatMapper(this.fields);
    if (!map) return drizzleGet.call(this, placeholderValues);
    const row = this.values(placeholderValues)[0];
    return row === undefined ? undefined : map(row);
  };
}
