// Locations: the tree of sites, buildings, rooms, bins and vehicles. Other modules check
// the locations a request names through requireLocation (or the *Exists helpers), so
// "unknown" and "archived" mean the same everywhere, and read ancestors via locationPath.
import { and, eq, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { lazyAll } from "../../platform/db/database.ts";
import { visibleRows } from "../../platform/db/pending.ts";
import { insertRecord, loadOr404, recordExists, requireActive, updateVersioned } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate, type Page } from "../../platform/paging/paging.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { items } from "../kernel/kernel.tables.ts";
import { locations } from "./locations.tables.ts";
import type { CreateLocation, ListLocationsQuery, LocationAncestor, LocationDto, UpdateLocation } from "./locations.schemas.ts";

export type LocationRow = typeof locations.$inferSelect;

/** Deeper than this the ancestor walk stops: a guard against a corrupted tree, never reached by a valid one. */
const MAX_TREE_DEPTH = 1000;

export function toLocationDto(r: LocationRow): LocationDto {
  const { id, status, version, createdAt, updatedAt, createdBy, name, kind, parentId, code } = r;
  return { id, status, version, createdAt, updatedAt, createdBy, name, kind, parentId, code };
}

// ---------------------------------------------------------------- references

/**
 * The check other modules use for a location id named in a request body: a missing
 * or archived location is a 400 at `path` (e.g. `/body/locationId`), never a 404.
 * Reads through the context (the open transaction, if any).
 */
export const requireLocation = (ctx: TenantCtx, id: string, path: string): Promise<LocationRow> =>
  requireActive(ctx, locations, id, path, "location");

/** Whether an active location has this id. */
export const activeLocationExists = (ctx: TenantCtx, id: string) => recordExists(ctx, locations, id, { activeOnly: true });

/** Whether a location has this id, whatever its status. */
export const locationExists = (ctx: TenantCtx, id: string) => recordExists(ctx, locations, id);

/**
 * Active locations whose code or name equals one of `keys` ignoring case (keys given
 * lower-cased, at most a few hundred per call): imports resolve names through it.
 */
export async function activeLocationsNamed(ctx: TenantCtx, keys: string[]): Promise<LocationRow[]> {
  if (keys.length === 0) return [];
  return db(ctx)
    .select()
    .from(locations)
    .where(and(eq(locations.status, "active"), or(inArray(sql`lower(${locations.code})`, keys), inArray(sql`lower(${locations.name})`, keys)), visibleRows(locations, ctx)));
}

/**
 * The location `startId` evaluates to and its ancestors, root first, ending with the
 * location itself (one recursive CTE over the parent index). Empty when it names no
 * location. `startId` may be a subquery, so a caller can read the path in the same
 * snapshot as the row that names the location. Await it, or put it in a snapshot.
 */
export function locationPathFrom(q: Querier, startId: SQL) {
  return lazyAll<LocationAncestor>(q, sql`
    WITH RECURSIVE up(id, parent_id, name, kind, depth) AS (
      SELECT id, parent_id, name, kind, 0 FROM locations WHERE id = ${startId}
      UNION ALL
      SELECT l.id, l.parent_id, l.name, l.kind, up.depth + 1 FROM locations l JOIN up ON l.id = up.parent_id
      WHERE up.depth < ${MAX_TREE_DEPTH})
    SELECT id, name, kind FROM up ORDER BY depth DESC`);
}

/** locationPathFrom for a location id. */
export function locationPath(q: Querier, id: string) {
  return locationPathFrom(q, sql`${id}`);
}

/** The FTS condition of `q` on locations (name, code); `match` is an ftsMatchQuery. Settings records use it too. */
export function locationText(match: string): SQL {
  return sql`${locations}.rowid IN (SELECT rowid FROM locations_fts WHERE locations_fts MATCH ${match})`;
}

// ---------------------------------------------------------------- commands and reads

async function assertLocationCodeFree(ctx: TenantCtx, code: string, exceptId?: string): Promise<void> {
  const clash = (await writer(ctx).select({ id: locations.id }).from(locations).where(eq(locations.code, code)))[0];
  if (clash && clash.id !== exceptId) throw new AppError("duplicate", `location code ${JSON.stringify(code)} is already in use`);
}

export async function createLocation(ctx: RequestCtx, input: CreateLocation): Promise<LocationDto> {
  return withTx(ctx, async (ctx) => {
    if (input.parentId !== undefined) await requireLocation(ctx, input.parentId, "/body/parentId");
    if (input.code !== undefined) await assertLocationCodeFree(ctx, input.code);
    const row = await insertRecord(ctx, locations, { parentId: input.parentId ?? null, name: input.name, kind: input.kind, code: input.code ?? null });
    return toLocationDto(row);
  });
}

export async function getLocation(ctx: RequestCtx, id: string): Promise<LocationDto & { path: LocationAncestor[] }> {
  const [rows, chain] = await readSnapshot(ctx, (q) => [q.select().from(locations).where(and(eq(locations.id, id), visibleRows(locations))), locationPath(q, id)] as const);
  const row = rows[0];
  if (!row) throw notFound("location");
  return { ...toLocationDto(row), path: chain.slice(0, -1) };
}

export async function updateLocation(ctx: RequestCtx, id: string, input: UpdateLocation): Promise<LocationDto> {
  const saved = await updateVersioned(ctx, locations, id, "location", input, {
    async validate(ctx, _row, change) {
      if (change.parentId) await requireLocation(ctx, change.parentId, "/body/parentId");
    },
    rules: (ctx, row, change) => locationRules(ctx, row, change),
  });
  return toLocationDto(saved);
}

/** The 409s of a location change: no cycle, a free code, nothing active inside an archived location. */
async function locationRules(ctx: TenantCtx, row: LocationRow, change: Partial<LocationRow>): Promise<void> {
  const tx = writer(ctx);
  const id = row.id;
  if (change.parentId) {
    // The new parent may not be the location itself or lie anywhere below it.
    const hit = await tx.all<{ hit: number }>(sql`
      WITH RECURSIVE up(id) AS (
        SELECT ${change.parentId}
        UNION SELECT l.parent_id FROM locations l JOIN up ON l.id = up.id WHERE l.parent_id IS NOT NULL)
      SELECT 1 AS hit FROM up WHERE id = ${id} LIMIT 1`);
    if (hit.length) throw new AppError("cycle_detected", "the new parent is this location or lies inside its subtree");
  }
  if (change.code) await assertLocationCodeFree(ctx, change.code, id);
  const parentId = change.parentId !== undefined ? change.parentId : row.parentId;
  if (change.status === "archived") {
    const child = await tx
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.parentId, id), eq(locations.status, "active")))
      .limit(1);
    if (child.length) throw new AppError("state_conflict", "the location still contains active locations; archive or move them first");
    const held = await tx
      .select({ id: items.id })
      .from(items)
      .where(and(eq(items.locationId, id), notInArray(items.lifecycle, ["disposed", "consumed"])))
      .limit(1);
    if (held.length) throw new AppError("state_conflict", "items are still at this location; move them first");
  }
  if (change.status === "active" && parentId !== null && change.parentId === undefined) {
    // Reactivating under an archived parent would leave an active location inside an archived one.
    const parent = await loadOr404(tx, locations, parentId, "location");
    if (parent.status !== "active") throw new AppError("state_conflict", "the parent location is archived; unarchive it first");
  }
}

export async function listLocations(ctx: RequestCtx, q: ListLocationsQuery): Promise<Page<LocationDto>> {
  const filters = new FilterSet()
    .add("q", q.q ? ftsMatchQuery(q.q) : null, locationText, q.q)
    .add("kind", q.kind, (v) => inArray(locations.kind, v))
    .add("status", q.status, (v) => inArray(locations.status, v))
    .add("parentId", q.parentId, (v) => eq(locations.parentId, v));
  return listByUpdate(ctx, locations, q, filters, toLocationDto);
}
