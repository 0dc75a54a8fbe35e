// Row mapping for Drizzle's bun:sqlite driver. Drizzle's generic mapResultRow
// works out each cell's decoder with prototype-walking type checks and iterates
// the field path, per cell: on a 50-row page of 24 columns that cost more than
// SQLite reading the rows. For flat selections (every field a top-level key, which
// is what select() from one table and most projections produce) the decoders are
// resolved once per query here and the rows mapped in a plain loop; nested
// selections, joins and relational queries keep Drizzle's own mapper. Each row is
// built as one object literal of the selection's keys (a function compiled once per
// shape, below), copying the cells whose column needs no decoding; a prepared query
// kept and run many times (a list's statements per shape) keeps its mapper. A test
// compares both mappers on real rows (test/platform/fast-rows.test.ts).
import { PreparedQuery } from "drizzle-orm/bun-sqlite/session";
import { Column, SQL, entityKind, is } from "drizzle-orm";
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

const plainDecoders = new WeakMap<DriverDecoder, boolean>();

/** True where the decoder is Drizzle's base Column's (the value as the driver gives it): the mapper copies it. */
function passesThrough(decoder: DriverDecoder): boolean {
  let plain = plainDecoders.get(decoder);
  if (plain === undefined) {
    let proto: unknown = Object.getPrototypeOf(decoder);
    while (proto !== null && !Object.prototype.hasOwnProperty.call(proto, "mapFromDriverValue")) proto = Object.getPrototypeOf(proto);
    plain = proto !== null && (proto as { constructor: { [entityKind]?: string } }).constructor[entityKind] === "Column";
    plainDecoders.set(decoder, plain);
  }
  return plain;
}

type RowBuilder = (row: unknown[], decoders: DriverDecoder[]) => Record<string, unknown>;

/** Row builders by selection shape (keys and which cells decode): a few per query the service runs. */
const builders = new Map<string, RowBuilder>();
const BUILDERS_MAX = 2048;

/**
 * A function building one row object as a literal of the selection's keys, so every row
 * of a query shares one object shape: copying the cells that need no decoding, decoding
 * the rest (null stays null, as in Drizzle's mapper). The source holds only the keys, as
 * JSON string literals, and cell indexes; it is compiled once per shape.
 */
function rowBuilder(keys: string[], decoders: DriverDecoder[]): RowBuilder {
  const plain = decoders.map(passesThrough);
  const shape = JSON.stringify(keys) + plain.map((p) => (p ? "1" : "0")).join("");
  let build = builders.get(shape);
  if (!build) {
    const cells = keys.map((k, i) => `${JSON.stringify(k)}: ${plain[i] ? `r[${i}]` : `r[${i}] === null ? null : d[${i}].mapFromDriverValue(r[${i}])`}`);
    build = new Function("r", "d", `return { ${cells.join(", ")} };`) as RowBuilder;
    if (builders.size >= BUILDERS_MAX) builders.clear();
    builders.set(shape, build);
  }
  return build;
}

/** The selection's keys and decoders when it is flat (every field a top-level key), else undefined. */
function flatFields(fields: SelectedField[] | undefined): Flat | undefined {
  if (!fields || fields.length === 0) return undefined;
  const keys: string[] = [];
  const decoders: DriverDecoder[] = [];
  for (const f of fields) {
    if (f.path.length !== 1) return undefined;
    keys.push(f.path[0]!);
    decoders.push(decoderOf(f.field));
  }
  return { keys, decoders };
}

type Flat = { keys: string[]; decoders: DriverDecoder[] };

/** A mapper for a flat selection, or undefined when Drizzle's own must run: a plain loop, cheap to make. */
export function flatMapper(fields: SelectedField[] | undefined): Mapper | undefined {
  const flat = flatFields(fields);
  return flat && loopMapper(flat);
}

/** The same mapping through the selection's compiled row builder: costlier to make, twice as fast per row. */
export function compiledMapper(fields: SelectedField[] | undefined): Mapper | undefined {
  const flat = flatFields(fields);
  return flat && builtMapper(flat);
}

function loopMapper({ keys, decoders }: Flat): Mapper {
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

function builtMapper({ keys, decoders }: Flat): Mapper {
  const build = rowBuilder(keys, decoders);
  return (row) => build(row, decoders);
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

function mapRows(rows: unknown[][], map: Mapper): Array<Record<string, unknown>> {
  const out = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = map(rows[i]!);
  return out;
}

/** Rows from which a query's first run compiles its row builder (fewer: the plain loop is cheaper overall). */
const COMPILE_FROM_ROWS = 16;

/** The mapper each flat query chose on its first run, for the runs after it (a list's statements kept per shape). */
const mappers = new WeakMap<object, Mapper>();

/** Installs the flat-row mapper on Drizzle's bun:sqlite prepared queries (once). */
export function installFastRows(): void {
  if (installed) return;
  installed = true;
  proto.all = function (this: BunPreparedQuery, placeholderValues) {
    let map = mappers.get(this);
    if (!map) {
      const flat = this.customResultMapper ? undefined : flatFields(this.fields);
      if (!flat) return drizzleAll.call(this, placeholderValues);
      const rows = this.values(placeholderValues);
      map = rows.length >= COMPILE_FROM_ROWS ? builtMapper(flat) : loopMapper(flat);
      mappers.set(this, map);
      return mapRows(rows, map);
    }
    return mapRows(this.values(placeholderValues), map);
  };
  proto.get = function (this: BunPreparedQuery, placeholderValues) {
    const map = mappers.get(this) ?? (this.customResultMapper ? undefined : flatMapper(this.fields));
    if (!map) return drizzleGet.call(this, placeholderValues);
    const row = this.values(placeholderValues)[0];
    return row === undefined ? undefined : map(row);
  };
}
