// Contract §7: one helper for every list route. Keyset order descending on
// (timestamp, id) with the row-value predicate (the OR/AND form scans), an exact
// total read in the same snapshot as the page, and opaque HMAC-bound cursors. A cursor
// is bound to the partner, the route serving the request as it is declared (ctx.route,
// set by the pipeline) with its path parameters' values, and the applied filters: no
// service names its route, so a renamed path cannot leave cursors bound to the old one.
import { z } from "@hono/zod-openapi";
import { and, count, desc, is, Param, Placeholder, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import type { RequestCtx } from "../http/context.ts";
import { readSnapshot, type Querier } from "../db/transactions.ts";
import { queryKey, type SnapshotQuery } from "../db/database.ts";
import { visibleRows } from "../db/pending.ts";

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;
export const MAX_TEXT_FILTER = 200;

export const PageQueryShape = {
  // Plain decimal digits only: Number() would also take "0x10", "1e2", "+5" and " 7".
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, "must be a whole number from 1 to 200 in plain decimal digits")
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_LIMIT))
    .default(DEFAULT_LIMIT)
    .openapi({ type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: "Rows per page (at most 200)." }),
  cursor: z.string().min(1).max(1024).optional().openapi({ description: "Opaque cursor from the previous page's nextCursor." }),
};

/** Free-text filter: trimmed, at most 200 characters, empty means absent. */
export const TextFilter = z.string().trim().max(MAX_TEXT_FILTER).optional();

/** Comma-separated enumerated filter, echoed as an array. */
export function csvEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const item = z.enum(values);
  return z
    .string()
    .transform((s, ctx) => {
      const parts = [...new Set(s.split(",").map((p) => p.trim()).filter(Boolean))];
      const out: T[number][] = [];
      for (const p of parts) {
        const r = item.safeParse(p);
        if (!r.success) {
          ctx.addIssue({ code: "custom", message: `must be one or more of ${values.join(", ")}` });
          return z.NEVER;
        }
        out.push(r.data);
      }
      return out;
    })
    .optional()
    .openapi({
      type: "string",
      // Empty entries are ignored, as the server does. White space but \v and \f, which no query value may hold.
      pattern: `^[^\\S\\v\\f]*(${values.join("|")})?[^\\S\\v\\f]*(,[^\\S\\v\\f]*(${values.join("|")})?[^\\S\\v\\f]*)*$`,
      description: `Comma-separated: ${values.join(", ")}`,
    });
}

/** A value a filter binds to a statement parameter. */
export type BindValue = string | number | boolean;

/**
 * What a bound condition is built from: the value (a list: its elements), or in its
 * place a placeholder for each, when the list's statements are built to be kept.
 * Hand them to Drizzle's operators or `sql` as they are, never compute with them.
 */
export type Bound<T> = T extends readonly (infer E)[] ? Array<E | Placeholder> : T | Placeholder;

/** The shape of a list's SQL, the values of its placeholders, and its condition built on placeholders (FilterSet.bound). */
export interface BoundFilters {
  /** Which bound conditions are present and their lists' lengths: equal shapes, equal SQL text. */
  shape: string;
  values: Record<string, unknown>;
  /** The same condition as FilterSet.where(), with placeholders where it has values. */
  where(): SQL | undefined;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

interface BoundCondition {
  value: BindValue | readonly BindValue[];
  /** Placeholder names: one, or one per element of a list. */
  keys: string | string[];
  build: (p: never) => SQL;
}

/**
 * The filters a list applied. A present value is echoed (the normalised query value,
 * or `echo` where the condition is built from a derived value such as an FTS match)
 * and adds its condition; undefined, null, "" and [] apply nothing. `false` is present.
 *
 * `bind` (an echoed filter) and `scope` (a condition always applied, never echoed, e.g.
 * the list's ownership) take a condition built from the value, which FilterSet builds
 * either with the values (where) or with a placeholder in each value's place
 * (bound.where): when every condition of a list is bound, its SQL text depends only on
 * which conditions are present, so paginate prepares the page and count statements once
 * per shape and runs them with each request's values (PageRequest.bound).
 */
export class FilterSet {
  readonly applied: Record<string, unknown> = {};
  /** Conditions always applied, then the filters': built when the list needs them, with values or placeholders. */
  #scopes: Array<SQL | BoundCondition> = [];
  #conds: Array<SQL | BoundCondition> = [];
  #shape = "";
  #values: Record<string, unknown> = {};
  /** An `add` condition holds its values in the SQL: no statement can be kept for a shape. */
  #unbound = false;

  add<T>(name: string, value: T | undefined | null, condition?: (v: NonNullable<T>) => SQL | undefined, echo: unknown = value): this {
    if (absent(value)) return this;
    this.applied[name] = echo;
    const cond = condition?.(value as NonNullable<T>);
    if (cond) {
      this.#conds.push(cond);
      this.#unbound = true;
    }
    return this;
  }

  /** Like add, with a condition FilterSet builds from the value or from placeholders in its place (one per element of a list). */
  bind<T extends BindValue | readonly BindValue[]>(name: string, value: T | undefined | null, condition: (v: Bound<T>) => SQL, echo: unknown = value): this {
    if (absent(value)) return this;
    this.applied[name] = echo;
    this.#conds.push(this.#bound(name, value as T, condition));
    return this;
  }

  /** A condition applied before the filters and never echoed (the list's scope), bound like `bind`'s. */
  scope<T extends BindValue | readonly BindValue[]>(name: string, value: T, condition: (v: Bound<T>) => SQL): this {
    this.#scopes.push(this.#bound(name, value, condition));
    return this;
  }

  #bound<T extends BindValue | readonly BindValue[]>(name: string, value: T, condition: (v: Bound<T>) => SQL): BoundCondition {
    let keys: string | string[];
    if (Array.isArray(value)) {
      this.#shape += `${name}[${value.length}];`;
      keys = value.map((v: BindValue, i) => this.#key(`${name}.${i}`, v));
    } else {
      this.#shape += `${name};`;
      keys = this.#key(name, value as BindValue);
    }
    return { value, keys, build: condition as (p: never) => SQL };
  }

  #key(key: string, value: BindValue): string {
    if (key in this.#values || key.startsWith("@")) throw new Error(`filter placeholder ${key} is bound twice or reserved`);
    this.#values[key] = value;
    return key;
  }

  #all(placeholders: boolean, leading: Array<SQL | undefined>): SQL | undefined {
    const built = (c: SQL | BoundCondition): SQL => {
      if (!("build" in c)) return c;
      if (!placeholders) return c.build(c.value as never);
      return c.build((typeof c.keys === "string" ? sql.placeholder(c.keys) : c.keys.map((k) => sql.placeholder(k))) as never);
    };
    return and(...this.#scopes.map(built), ...leading, ...this.#conds.map(built));
  }

  /** The shape, values and placeholder condition when every condition is bound (undefined once `add` put a value into the SQL). */
  get bound(): BoundFilters | undefined {
    return this.#unbound ? undefined : { shape: this.#shape, values: this.#values, where: () => this.#all(true, []) };
  }

  /**
   * AND of the scope, `leading` conditions (always applied, never echoed) and the filters' in the order added,
   * with their values; undefined when none. A list given leading conditions has no bound shape of its own.
   */
  where(...leading: Array<SQL | undefined>): SQL | undefined {
    return this.#all(false, leading);
  }
}

export function listEnvelope<T extends z.ZodType, K extends string = "items">(itemSchema: T, name: string, listKey: K = "items" as K) {
  const list = { [listKey]: z.array(itemSchema) } as { [P in K]: z.ZodArray<T> };
  return z
    .object({
      ...list,
      nextCursor: z.string().nullable(),
      limit: z.number().int(),
      total: z.number().int(),
      asOf: z.string(),
      filters: z.record(z.string(), z.unknown()),
    })
    .openapi(name);
}

interface CursorPayload {
  t: string;
  i: string;
}

/** Bindings worked out lately, by their inputs as JSON.stringify spells them (a page after the first repeats them). */
const bindings = new Map<string, string>();
const BINDINGS_MAX = 4096;

/** What a cursor belongs to: the partner, the route (template and path parameters) and the filters. */
function bindingOf(ctx: RequestCtx, filters: Record<string, unknown>): string {
  const key = JSON.stringify([ctx.partnerId, ctx.route, ctx.routeParams, filters]);
  let binding = bindings.get(key);
  if (binding === undefined) {
    binding = createHash("sha256")
      .update(canonicalJson({ p: ctx.partnerId, r: ctx.route, a: ctx.routeParams, f: filters }))
      .digest("base64url")
      .slice(0, 22);
    if (bindings.size >= BINDINGS_MAX) bindings.clear();
    bindings.set(key, binding);
  }
  return binding;
}

function sign(key: Uint8Array, data: string): string {
  return createHmac("sha256", key).update(data).digest("base64url").slice(0, 32);
}

/** The next page's cursor of the list the request serves (bound as bindingOf says). */
export function encodeCursor(ctx: RequestCtx, filters: Record<string, unknown>, pos: CursorPayload): string {
  const body = Buffer.from(JSON.stringify({ b: bindingOf(ctx, filters), t: pos.t, i: pos.i })).toString("base64url");
  return `${body}.${sign(ctx.deps.cursorKey, body)}`;
}

/** A cursor's position; 400 invalid_cursor when it is tampered with or belongs to another partner, route, path or filters. */
export function decodeCursor(ctx: RequestCtx, filters: Record<string, unknown>, cursor: string): CursorPayload {
  const bad = () => new AppError("invalid_cursor", "the cursor is invalid, tampered with, or belongs to other filters", {
    errors: [{ path: "/query/cursor", message: "invalid cursor" }],
  });
  const dot = cursor.indexOf(".");
  if (dot <= 0) throw bad();
  const body = cursor.slice(0, dot);
  const mac = Buffer.from(cursor.slice(dot + 1));
  const expected = Buffer.from(sign(ctx.deps.cursorKey, body));
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw bad();
  let parsed: { b?: unknown; t?: unknown; i?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (parsed.b !== bindingOf(ctx, filters) || typeof parsed.t !== "string" || typeof parsed.i !== "string") throw bad();
  return { t: parsed.t, i: parsed.i };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  limit: number;
  total: number;
  asOf: string;
  filters: Record<string, unknown>;
}

export interface PageRequest<Row> {
  /** Normalised filters actually applied (echoed and bound into the cursor). */
  filters: Record<string, unknown>;
  limit: number;
  cursor?: string;
  /** Authoritative timestamp and id columns of the order. */
  orderTs: SQLiteColumn;
  orderId: SQLiteColumn;
  /**
   * Builds the page query: `where` already holds the filters and keyset predicate;
   * the builder adds select/from/joins and must apply where, orderBy and limit given
   * (a placeholder when the statement is kept per shape: hand it to `.limit()` as it is).
   */
  page(q: Querier, where: SQL | undefined, orderBy: SQL[], limit: number | Placeholder): PromiseLike<Row[]>;
  /** Builds the count query with the filters only. */
  count: (q: Querier, where: SQL | undefined) => PromiseLike<Array<{ n: number }>>;
  /** The filters' condition, or a function building it when needed (not when kept statements serve the list). */
  where?: SQL | (() => SQL | undefined);
  /**
   * The filters' shape, values and placeholder condition (FilterSet.bound) when `where`
   * is that condition with the values: the page and count statements are then built on
   * placeholders and prepared once per route and shape on a local database, and reused.
   * Everything the SQL text depends on must be in the shape: a statement whose SQL
   * differs from the one `where` makes, or that still holds a value, is never kept.
   */
  bound?: BoundFilters;
  /** Row → timestamp/id used for the next cursor. */
  position: (row: Row) => CursorPayload;
}

/** The keyset predicate of a (timestamp, id) descending order: rows after `pos`, or undefined on the first page. */
export function keysetAfter(orderTs: SQLiteColumn, orderId: SQLiteColumn, pos: { t: string | Placeholder; i: string | Placeholder } | undefined): SQL | undefined {
  return pos ? sql`(${orderTs}, ${orderId}) < (${pos.t}, ${pos.i})` : undefined;
}

/** Reads one page and its exact total in one read snapshot (one batch). */
export async function paginate<Row, Dto>(ctx: RequestCtx, req: PageRequest<Row>, toDto: (row: Row) => Dto): Promise<Page<Dto>> {
  const pos = req.cursor ? decodeCursor(ctx, req.filters, req.cursor) : undefined;
  // Page, exact total and asOf from one snapshot. The total is memoised by its exact
  // query while the partner's database is unchanged (see SqlDatabase.snapshot).
  let [rows, counted] = await readSnapshot(ctx, (q) => keptStatements(ctx, q, req, pos) ?? builtQueries(ctx, q, req, pos));
  const total = Number(counted[0]?.n ?? 0);
  const asOf = ctx.deps.clock.now().toISOString();
  const more = rows.length > req.limit;
  if (more) rows = rows.slice(0, req.limit);
  const last = rows[rows.length - 1];
  return {
    items: rows.map(toDto),
    nextCursor: more && last ? encodeCursor(ctx, req.filters, req.position(last)) : null,
    limit: req.limit,
    total,
    asOf,
    filters: req.filters,
  };
}

type PageQueries<Row> = readonly [SnapshotQuery<Row[]>, SnapshotQuery<Array<{ n: number }>>];

/** The list's condition with this request's values. */
function whereOf(req: Pick<PageRequest<unknown>, "where">): SQL | undefined {
  return typeof req.where === "function" ? req.where() : req.where;
}

/** The page and count queries built for this request, the count memoised by its SQL and parameters. */
function builtQueries<Row>(ctx: RequestCtx, q: Querier, req: PageRequest<Row>, pos: CursorPayload | undefined): PageQueries<Row> {
  const where = whereOf(req);
  const pageWhere = and(where, keysetAfter(req.orderTs, req.orderId, pos));
  const countQuery = req.count(q, where);
  const key = ctx.tx ? undefined : queryKey(countQuery);
  return [req.page(q, pageWhere, [desc(req.orderTs), desc(req.orderId)], req.limit + 1), key ? { memo: `count\u0000${key}`, query: countQuery } : countQuery];
}

interface KeptQuery {
  toSQL(): { sql: string; params: unknown[] };
  prepare(): { all(values: Record<string, unknown>): unknown };
}
interface KeptList {
  page: { all(values: Record<string, unknown>): unknown };
  count: { all(values: Record<string, unknown>): unknown };
  /** The statements' SQL text, for the tests' check (checkKeptLists). */
  text: string;
}

/**
 * Tests turn this on (test/preload.ts): every list served by kept statements also builds
 * its queries and fails when their SQL differs from the kept statements' (a route whose
 * SQL depends on more than its bound shape: a value written into a scope condition, say).
 */
let verifyKept = false;
export function checkKeptLists(on = true): void {
  verifyKept = on;
}

/** Lists served by kept statements while the check is on, as `route (shape)`: the tests' view of which lists keep theirs. */
const listsKept = new Set<string>();
export function keptLists(): ReadonlySet<string> {
  return listsKept;
}

/** The SQL text of a page and count pair (undefined where they are not Drizzle queries). */
function sqlText(page: unknown, count: unknown): string | undefined {
  return isKeptQuery(page) && isKeptQuery(count) ? `${page.toSQL().sql}\u0000${count.toSQL().sql}` : undefined;
}

/** A page and count pair with its SQL text, when it holds placeholders only (nothing of one request); else undefined. */
function keepable(page: unknown, count: unknown): { page: KeptQuery; count: KeptQuery; text: string } | undefined {
  if (!isKeptQuery(page) || !isKeptQuery(count)) return undefined;
  const [p, c] = [page.toSQL(), count.toSQL()];
  return onlyPlaceholders(p.params) && onlyPlaceholders(c.params) ? { page, count, text: `${p.sql}\u0000${c.sql}` } : undefined;
}

/** Statements kept per reader: shapes seen most recently, at most KEPT_SHAPES (the driver's own cache holds the statements). */
const KEPT_SHAPES = 256;
const keptByReader = new WeakMap<object, Map<string, KeptList | null>>();

function isKeptQuery(q: unknown): q is KeptQuery {
  return typeof (q as KeptQuery).toSQL === "function" && typeof (q as KeptQuery).prepare === "function";
}

/** Every parameter a placeholder: nothing of one request is frozen into the statement. */
function onlyPlaceholders(params: unknown[]): boolean {
  return params.every((p) => is(p, Placeholder) || (is(p, Param) && is(p.value, Placeholder)));
}

/** A query that runs the kept statement when the snapshot runs it (bun:sqlite: synchronously, inside the snapshot). */
function runKept<T>(statement: { all(values: Record<string, unknown>): unknown }, values: Record<string, unknown>): PromiseLike<T> {
  const execute = async () => statement.all(values) as T;
  return { execute, then: (ok, fail) => execute().then(ok, fail) } as PromiseLike<T> & { execute: () => Promise<T> };
}

/**
 * The page and count as statements kept for the list's route and shape (FilterSet.bound):
 * built, checked and prepared on the first request of a shape, then run with each
 * request's values, without building SQL again. Only on a local database's reader
 * (a remote read snapshot is a batch of built queries) and outside a transaction;
 * undefined where the list does not qualify (the caller builds its queries then).
 */
function keptStatements<Row>(ctx: RequestCtx, q: Querier, req: PageRequest<Row>, pos: CursorPayload | undefined): PageQueries<Row> | undefined {
  const bound = req.bound;
  // Drizzle forces the cast: resultKind (sync on bun:sqlite) is internal to its database object.
  if (!bound || ctx.tx || (q as unknown as { resultKind?: string }).resultKind !== "sync") return undefined;
  let kept = keptByReader.get(q);
  if (!kept) keptByReader.set(q, (kept = new Map()));
  const key = `${ctx.route}\u0000${bound.shape}\u0000${pos ? "after" : "first"}`;
  const orderBy = () => [desc(req.orderTs), desc(req.orderId)];
  // The statements on placeholders, and the SQL text this request's own queries (with its values) have.
  const onPlaceholders = () => {
    const where = bound.where();
    const keyset = keysetAfter(req.orderTs, req.orderId, pos ? { t: sql.placeholder("@t"), i: sql.placeholder("@i") } : undefined);
    return keepable(req.page(q, and(where, keyset), orderBy(), sql.placeholder("@limit")), req.count(q, where));
  };
  const withValues = () => {
    const where = whereOf(req);
    return sqlText(req.page(q, and(where, keysetAfter(req.orderTs, req.orderId, pos)), orderBy(), req.limit + 1), req.count(q, where));
  };
  let list = kept.get(key);
  if (list === undefined) {
    const built = onPlaceholders();
    list = built === undefined || built.text !== withValues() ? null : { page: built.page.prepare(), count: built.count.prepare(), text: built.text };
    if (kept.size >= KEPT_SHAPES) kept.delete(kept.keys().next().value as string);
  } else {
    kept.delete(key);
    if (verifyKept && list !== null && withValues() !== list.text) {
      throw new Error(`the statements kept for ${ctx.route} (${bound.shape}) differ from this request's: its SQL depends on more than its bound shape`);
    }
  }
  kept.set(key, list);
  if (list === null) return undefined;
  if (verifyKept) listsKept.add(`${ctx.route} (${bound.shape})`);
  const values = pos ? { ...bound.values, "@limit": req.limit + 1, "@t": pos.t, "@i": pos.i } : { ...bound.values, "@limit": req.limit + 1 };
  // The total depends on the route's filters alone: one memo for every page and limit.
  const memo = `count\u0000${ctx.route}\u0000${bound.shape}\u0000${JSON.stringify(bound.values)}`;
  return [runKept<Row[]>(list.page, values), { memo, query: runKept<Array<{ n: number }>>(list.count, bound.values) }];
}

type UpdatedTable = SQLiteTable & { updatedAt: SQLiteColumn; id: SQLiteColumn };

/**
 * The page, count and cursor parts of a list over one table, ordered by (`key`, id), `key`
 * naming one of its timestamp columns:
 * what a single-table list needs besides its filters.
 */
export function tableOrder<T extends SQLiteTable & { id: SQLiteColumn }, K extends keyof T["$inferSelect"] & keyof T & string>(table: T, key: K) {
  type Row = T["$inferSelect"];
  return {
    orderTs: table[key] as SQLiteColumn,
    orderId: table.id,
    // Drizzle cannot type a select from a generic table: its rows are T's rows.
    // Rows of an import still being applied are in no list (src/platform/db/pending.ts).
    page: (q: Querier, where: SQL | undefined, orderBy: SQL[], limit: number | Placeholder) =>
      q.select().from(table as SQLiteTable).where(and(where, visibleRows(table))).orderBy(...orderBy).limit(limit) as PromiseLike<Row[]>,
    count: (q: Querier, where: SQL | undefined) => q.select({ n: count() }).from(table as SQLiteTable).where(and(where, visibleRows(table))),
    position: (r: Row) => ({ t: (r as Record<K, string>)[key], i: (r as { id: string }).id }),
  };
}

/** A list of mutable records, newest change first: (updated_at, id). */
export function updatedOrder<T extends UpdatedTable>(table: T) {
  return tableOrder(table, "updatedAt");
}

/**
 * The usual register list: newest change first ((updatedAt, id) descending), the
 * FilterSet's filters echoed, `leading` conditions (scoping such as "the caller's
 * own") always applied and never echoed. A FilterSet whose conditions are all bound
 * (bind, scope) and no `leading` condition: its statements are kept per shape.
 */
export function listByUpdate<T extends UpdatedTable, Dto>(
  ctx: RequestCtx,
  table: T,
  q: { limit: number; cursor?: string },
  filters: FilterSet,
  toDto: (row: T["$inferSelect"]) => Dto,
  ...leading: Array<SQL | undefined>
): Promise<Page<Dto>> {
  // Scoped by `leading` SQL, the list's text is not the FilterSet's alone: nothing is kept (use FilterSet.scope to keep it).
  const bound = leading.every((l) => l === undefined) ? filters.bound : undefined;
  return paginate(ctx, { filters: filters.applied, limit: q.limit, cursor: q.cursor, ...updatedOrder(table), where: () => filters.where(...leading), bound }, toDto);
}
