// The register reads: the exact overview, the owned and loaned lists, and ranked
// search. Every count is exact and read in one snapshot with what it describes.
import { and, count, eq, inArray, lt, sql, type Placeholder, type SQL } from "drizzle-orm";
import { type RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, type Querier } from "../../platform/db/transactions.ts";
import { FilterSet, paginate, type BoundFilters, type Page } from "../../platform/paging/paging.ts";
import { items } from "../kernel/kernel.tables.ts";
import { checkouts } from "../custody/custody.tables.ts";
import { workOrders } from "../maintenance/maintenance.tables.ts";
import { UNFINISHED as UNFINISHED_WORK_ORDERS } from "../maintenance/index.ts";
import { AVAILABILITIES, LIFECYCLES, toItemDto, type ItemDto, type ItemRow } from "../kernel/index.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { countLessPending, pendingRows, visibleRows, visibleSql } from "../../platform/db/pending.ts";
import { SEARCH_LIMIT, type RegisterListQuery, type SearchHit, type Summary } from "./register.schemas.ts";

export type Ownership = ItemRow["ownership"];

/**
 * Normalised filters (echoed, cursor-bound), the WHERE clause they make (built when
 * needed) and its bound shape: every condition is bound (FilterSet.bind, scope), so the
 * page and count statements are prepared once per combination of filters and reused.
 */
export function registerFilters(ownership: Ownership, q: RegisterListQuery): { filters: Record<string, unknown>; where: () => SQL; bound: BoundFilters } {
  const match = q.q ? ftsMatchQuery(q.q) : null;
  const f = new FilterSet()
    // With text, the FTS matches drive the plan: unary + keeps SQLite from walking every
    // item of the ownership through an items_own_* index and probing each against them
    // (measured on 10,000 items: 0.07 ms instead of 1.2 ms for a count).
    .scope("ownership", ownership, (v) => (match ? sql`+${items.ownership} = ${v}` : eq(items.ownership, v)))
    // Both sides are rowid/primary-key look-ups, so SQLite answers the OR with a multi-index union.
    .bind(
      "q",
      match,
      (m) => sql`(${items}.rowid IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${m})
      OR ${items.id} IN (SELECT item_id FROM identifiers WHERE rowid IN (SELECT rowid FROM identifiers_fts WHERE identifiers_fts MATCH ${m})))`,
      q.q,
    )
    .bind("lifecycle", q.lifecycle, (v) => inArray(items.lifecycle, v))
    .bind("condition", q.condition, (v) => inArray(items.condition, v))
    .bind("qualityStatus", q.qualityStatus, (v) => inArray(items.qualityStatus, v))
    .bind("availability", q.availability, (v) => inArray(items.availability, v))
    .bind("categoryId", q.categoryId, (v) => eq(items.categoryId, v))
    // The location and its subtree (parent_id index); UNION (not ALL) also ends on a cyclic tree.
    .bind(
      "locationId",
      q.locationId,
      (v) => sql`${items.locationId} IN (WITH RECURSIVE sub(id) AS (SELECT ${v}
      UNION SELECT l.id FROM locations l JOIN sub ON l.parent_id = sub.id) SELECT id FROM sub)`,
    );
  return { filters: f.applied, where: () => f.where() as SQL, bound: f.bound! };
}

/** Page query of the register (exported for the query-plan test); rows of an import still being applied are left out. */
export function registerPage(q: Querier, where: SQL | undefined, orderBy: SQL[], limit: number | Placeholder) {
  return q.select().from(items).where(and(where, visibleRows(items))).orderBy(...orderBy).limit(limit);
}

/**
 * Count query of the register (exported for the query-plan test): the filters' count
 * less the pending rows of an import still being applied that they match. Subtracted
 * rather than filtered, so the count stays on its covering index (the pending column
 * is in none); the pending side reads the partial items_pending_idx, empty outside an import.
 */
export function registerCount(q: Querier, where: SQL | undefined) {
  return q.select({ n: countLessPending(items, "items_pending_idx", where) }).from(items).where(where);
}

/** GET /owned and GET /loaned: one page, exact total, (updatedAt, id) descending. */
export async function listRegister(ctx: RequestCtx, ownership: Ownership, q: RegisterListQuery): Promise<Page<ItemDto>> {
  const { filters, where, bound } = registerFilters(ownership, q);
  return paginate(
    ctx,
    {
      filters,
      bound,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: items.updatedAt,
      orderId: items.id,
      where,
      page: registerPage,
      count: registerCount,
      position: (r) => ({ t: r.updatedAt, i: r.id }),
    },
    toItemDto,
  );
}

function tally<K extends string>(keys: readonly K[], rows: Array<{ k: string; n: number }>): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) if ((keys as readonly string[]).includes(r.k)) out[r.k as K] = Number(r.n);
  return out;
}

/** The summary's four counts (exported for the query-plan test). */
export function summaryQueries(q: Querier, nowIso: string) {
  return {
    byLifecycle: q.select({ k: items.lifecycle, n: count() }).from(items).groupBy(items.lifecycle),
    byAvailability: q.select({ k: items.availability, n: count() }).from(items).groupBy(items.availability),
    // Rows of an import still being applied, taken off the two covered counts above (items_pending_idx; none outside an import).
    pending: q
      .select({ lifecycle: items.lifecycle, availability: items.availability, n: count() })
      .from(items)
      .where(pendingRows(items))
      .groupBy(items.lifecycle, items.availability),
    overdue: q.select({ n: count() }).from(checkouts).where(and(eq(checkouts.state, "checked_out"), lt(checkouts.dueAt, nowIso))),
    // Work orders still to be done: neither completed nor cancelled.
    openWorkOrders: q.select({ n: count() }).from(workOrders).where(inArray(workOrders.status, UNFINISHED_WORK_ORDERS)),
  };
}

/**
 * GET /summary: exact counts in one read snapshot, each a GROUP BY or range count
 * over an index (items_lifecycle_idx, items_availability_idx, checkouts_due_idx,
 * work_orders_status_page_idx).
 * asOf is the request's server time, the instant overdue is measured against.
 */
export async function getSummary(ctx: RequestCtx): Promise<Summary> {
  // One snapshot: the counts agree with each other.
  const [lc, av, od, wo, pending] = await readSnapshot(ctx, (q) => {
    const s = summaryQueries(q, ctx.nowIso);
    return [s.byLifecycle, s.byAvailability, s.overdue, s.openWorkOrders, s.pending] as const;
  });
  const byLifecycle = tally(LIFECYCLES, lc);
  const byAvailability = tally(AVAILABILITIES, av);
  for (const p of pending) {
    byLifecycle[p.lifecycle] -= Number(p.n);
    byAvailability[p.availability] -= Number(p.n);
  }
  return {
    totalItems: lc.reduce((s, r) => s + Number(r.n), 0) - pending.reduce((s, r) => s + Number(r.n), 0),
    byLifecycle,
    byAvailability,
    overdueCheckouts: Number(od[0]?.n ?? 0),
    inTransit: byAvailability.in_transit,
    openWorkOrders: Number(wo[0]?.n ?? 0),
    asOf: ctx.nowIso,
  };
}

interface HitRow {
  type: SearchHit["type"];
  id: string;
  title: string;
  subtitle: string | null;
  item_id: string | null;
  score: number;
}

/**
 * GET /search: FTS5 over items, identifiers, locations and parties, each side
 * cut to its own best 50 by BM25 before the union, then ranked together.
 * FTS5's rank is negative BM25 (lower is better); score flips it.
 */
export async function search(ctx: RequestCtx, text: string): Promise<{ items: SearchHit[] }> {
  const match = ftsMatchQuery(text);
  if (!match) return { items: [] };
  const rows = await db(ctx).all<HitRow>(sql`
    SELECT type, id, title, subtitle, item_id, -rank AS score FROM (
      SELECT * FROM (
        SELECT 'item' AS type, i.id AS id, i.name AS title, i.serial_number AS subtitle, i.id AS item_id, items_fts.rank AS rank, 0 AS ord
        FROM items_fts JOIN items i ON i.rowid = items_fts.rowid
        WHERE items_fts MATCH ${match} AND ${visibleSql("i")} ORDER BY items_fts.rank LIMIT ${SEARCH_LIMIT})
      UNION ALL SELECT * FROM (
        SELECT 'identifier', d.id, d.value, d.scheme || ' · ' || i.name, d.item_id, identifiers_fts.rank, 1
        FROM identifiers_fts JOIN identifiers d ON d.rowid = identifiers_fts.rowid JOIN items i ON i.id = d.item_id
        WHERE identifiers_fts MATCH ${match} AND ${visibleSql("i")} ORDER BY identifiers_fts.rank LIMIT ${SEARCH_LIMIT})
      UNION ALL SELECT * FROM (
        SELECT 'location', l.id, l.name, coalesce(l.code, l.kind), NULL, locations_fts.rank, 2
        FROM locations_fts JOIN locations l ON l.rowid = locations_fts.rowid
        WHERE locations_fts MATCH ${match} AND ${visibleSql("l")} ORDER BY locations_fts.rank LIMIT ${SEARCH_LIMIT})
      UNION ALL SELECT * FROM (
        SELECT 'party', p.id, p.name, coalesce(p.external_ref, p.kind), NULL, parties_fts.rank, 3
        FROM parties_fts JOIN parties p ON p.rowid = parties_fts.rowid
        WHERE parties_fts MATCH ${match} AND ${visibleSql("p")} ORDER BY parties_fts.rank LIMIT ${SEARCH_LIMIT})
    ) ORDER BY rank, ord, id LIMIT ${SEARCH_LIMIT}`);
  return {
    items: rows.map((r, i) => ({
      type: r.type,
      id: r.id,
      title: r.title,
      ...(r.subtitle !== null ? { subtitle: r.subtitle } : {}),
      ...(r.item_id !== null ? { itemId: r.item_id } : {}),
      rank: i + 1,
      score: Number(r.score),
    })),
  };
}
