// Contract §7: one helper for every list route. Keyset order descending on
// (timestamp, id) with the row-value predicate (the OR/AND form scans), an exact
// total read in the same snapshot as the page, and opaque HMAC-bound cursors. A cursor
// is bound to the partner, the route serving the request as it is declared (ctx.route,
// set by the pipeline) with its path parameters' values, and the applied filters: no
// service names its route, so a renamed path cannot leave cursors bound to the old one.
import { z } from "@hono/zod-openapi";
import { and, count, desc, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import type { RequestCtx } from "../http/context.ts";
import { readSnapshot, type Querier } from "../db/transactions.ts";
import { queryKey } from "../db/database.ts";

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

/**
 * The filters a list applied. A present value is echoed (the normalised query value,
 * or `echo` where the condition is built from a derived value such as an FTS match)
 * and adds its condition; undefined, null, "" and [] apply nothing. `false` is present.
 */
export class FilterSet {
  readonly applied: Record<string, unknown> = {};
  #conds: SQL[] = [];

  add<T>(name: string, value: T | undefined | null, condition?: (v: NonNullable<T>) => SQL | undefined, echo: unknown = value): this {
    if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) return this;
    this.applied[name] = echo;
    const cond = condition?.(value);
    if (cond) this.#conds.push(cond);
    return this;
  }

  /** AND of `leading` conditions (always applied, never echoed) then the filters' in the order added; undefined when none. */
  where(...leading: Array<SQL | undefined>): SQL | undefined {
    return and(...leading, ...this.#conds);
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

/** What a cursor belongs to: the partner, the route (template and path parameters) and the filters. */
function bindingOf(ctx: RequestCtx, filters: Record<string, unknown>): string {
  return createHash("sha256")
    .update(canonicalJson({ p: ctx.partnerId, r: ctx.route, a: ctx.routeParams, f: filters }))
    .digest("base64url")
    .slice(0, 22);
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
   * the builder adds select/from/joins and must apply where, orderBy and limit given.
   */
  page: (q: Querier, where: SQL | undefined, orderBy: SQL[], limit: number) => PromiseLike<Row[]>;
  /** Builds the count query with the filters only. */
  count: (q: Querier, where: SQL | undefined) => PromiseLike<Array<{ n: number }>>;
  where?: SQL;
  /** Row → timestamp/id used for the next cursor. */
  position: (row: Row) => CursorPayload;
}

/** The keyset predicate of a (timestamp, id) descending order: rows after `pos`, or undefined on the first page. */
export function keysetAfter(orderTs: SQLiteColumn, orderId: SQLiteColumn, pos: CursorPayload | undefined): SQL | undefined {
  return pos ? sql`(${orderTs}, ${orderId}) < (${pos.t}, ${pos.i})` : undefined;
}

/** Reads one page and its exact total in one read snapshot (one batch). */
export async function paginate<Row, Dto>(ctx: RequestCtx, req: PageRequest<Row>, toDto: (row: Row) => Dto): Promise<Page<Dto>> {
  const pos = req.cursor ? decodeCursor(ctx, req.filters, req.cursor) : undefined;
  const keyset = keysetAfter(req.orderTs, req.orderId, pos);
  const pageWhere = and(req.where, keyset);
  const orderBy = [desc(req.orderTs), desc(req.orderId)];
  // Page, exact total and asOf from one snapshot. The total is memoised by its exact
  // query while the partner's database is unchanged (see SqlDatabase.snapshot).
  let [rows, counted] = await readSnapshot(ctx, (q) => {
    const countQuery = req.count(q, req.where);
    const key = ctx.tx ? undefined : queryKey(countQuery);
    return [req.page(q, pageWhere, orderBy, req.limit + 1), key ? { memo: `count\u0000${key}`, query: countQuery } : countQuery] as const;
  });
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

type UpdatedTable = SQLiteTable & { updatedAt: SQLiteColumn; id: SQLiteColumn };

/**
 * The page, count and cursor parts of a list over one table of mutable records,
 * ordered by (updated_at, id): what most list routes need besides their filters.
 */
export function updatedOrder<T extends UpdatedTable>(table: T) {
  type Row = T["$inferSelect"];
  return {
    orderTs: table.updatedAt,
    orderId: table.id,
    // Drizzle cannot type a select from a generic table: its rows are T's rows.
    page: (q: Querier, where: SQL | undefined, orderBy: SQL[], limit: number) =>
      q.select().from(table as SQLiteTable).where(where).orderBy(...orderBy).limit(limit) as PromiseLike<Row[]>,
    count: (q: Querier, where: SQL | undefined) => q.select({ n: count() }).from(table as SQLiteTable).where(where),
    position: (r: Row) => ({ t: (r as { updatedAt: string }).updatedAt, i: (r as { id: string }).id }),
  };
}

/**
 * The usual register list: newest change first ((updatedAt, id) descending), the
 * FilterSet's filters echoed, `leading` conditions (scoping such as "the caller's
 * own") always applied and never echoed.
 */
export function listByUpdate<T extends UpdatedTable, Dto>(
  ctx: RequestCtx,
  table: T,
  q: { limit: number; cursor?: string },
  filters: FilterSet,
  toDto: (row: T["$inferSelect"]) => Dto,
  ...leading: Array<SQL | undefined>
): Promise<Page<Dto>> {
  return paginate(ctx, { filters: filters.applied, limit: q.limit, cursor: q.cursor, ...updatedOrder(table), where: filters.where(...leading) }, toDto);
}
