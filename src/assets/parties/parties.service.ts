// Parties: the people and organisations assets are owned by, leased from or lent to.
// Other modules check the parties a request names through requireParty (or the
// *Exists helpers), so "unknown" and "archived" mean the same everywhere.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { assertVersion, invalid } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { changesOf, loadOr404, saveVersion } from "../../platform/db/records.ts";
import { FilterSet, paginate, updatedOrder, type Page } from "../../platform/paging/paging.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { parties } from "./parties.tables.ts";
import type { CreateParty, ListPartiesQuery, PartyDto, UpdateParty } from "./parties.schemas.ts";

export type PartyRow = typeof parties.$inferSelect;

export function toPartyDto(r: PartyRow): PartyDto {
  const { id, status, version, createdAt, updatedAt, createdBy, name, kind, externalRef } = r;
  return { id, status, version, createdAt, updatedAt, createdBy, name, kind, externalRef };
}

// ---------------------------------------------------------------- references

/**
 * The check other modules use for a party id named in a request body: a missing or
 * archived party is a 400 at `path` (e.g. `/body/ownerPartyId`), never a 404.
 * Reads through the context (the open transaction, if any).
 */
export async function requireParty(ctx: TenantCtx, id: string, path: string): Promise<PartyRow> {
  const row = (await db(ctx).select().from(parties).where(eq(parties.id, id)))[0];
  if (!row) throw invalid(path, "unknown party");
  if (row.status !== "active") throw invalid(path, "party is archived");
  return row;
}

/** Whether an active party has this id. */
export async function activePartyExists(ctx: TenantCtx, id: string): Promise<boolean> {
  const hit = await db(ctx)
    .select({ id: parties.id })
    .from(parties)
    .where(and(eq(parties.id, id), eq(parties.status, "active")));
  return hit.length > 0;
}

/** Whether a party has this id, whatever its status. */
export async function partyExists(ctx: TenantCtx, id: string): Promise<boolean> {
  const hit = await db(ctx).select({ id: parties.id }).from(parties).where(eq(parties.id, id));
  return hit.length > 0;
}

/** The FTS condition of `q` on parties (name, external reference); `match` is an ftsMatchQuery. Settings records use it too. */
export function partyText(match: string): SQL {
  return sql`${parties}.rowid IN (SELECT rowid FROM parties_fts WHERE parties_fts MATCH ${match})`;
}

/** A subquery of the ids of the parties `match` (an ftsMatchQuery) finds: agreements search their counterparty by it. */
export function partyIdsMatching(match: string): SQL {
  return sql`(SELECT id FROM parties WHERE rowid IN (SELECT rowid FROM parties_fts WHERE parties_fts MATCH ${match}))`;
}

// ---------------------------------------------------------------- commands and reads

export async function createParty(ctx: RequestCtx, input: CreateParty): Promise<PartyDto> {
  return withTx(ctx, async () => {
    const row: PartyRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      kind: input.kind,
      externalRef: input.externalRef ?? null,
      status: "active",
    };
    await writer(ctx).insert(parties).values(row);
    return toPartyDto(row);
  });
}

export async function getParty(ctx: RequestCtx, id: string): Promise<PartyDto> {
  return toPartyDto(await loadOr404(db(ctx), parties, id, "party"));
}

export async function updateParty(ctx: RequestCtx, id: string, input: UpdateParty): Promise<PartyDto> {
  return withTx(ctx, async () => {
    const tx = writer(ctx);
    const row = await loadOr404(tx, parties, id, "party");
    const { expectedVersion, ...fields } = input;
    assertVersion("party", row, expectedVersion);
    const change = changesOf(row, fields);
    if (Object.keys(change).length === 0) return toPartyDto(row);
    // Archiving keeps existing references (items, agreements); only new ones are refused.
    return toPartyDto(await saveVersion(tx, parties, row, change, ctx.nowIso));
  });
}

export async function listParties(ctx: RequestCtx, q: ListPartiesQuery): Promise<Page<PartyDto>> {
  const filters = new FilterSet()
    .add("q", q.q ? ftsMatchQuery(q.q) : null, partyText, q.q)
    .add("kind", q.kind, (v) => inArray(parties.kind, v))
    .add("status", q.status, (v) => inArray(parties.status, v));
  return paginate(
    ctx,
    {
      route: "GET /parties",
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...updatedOrder(parties),
      where: filters.where(),
    },
    toPartyDto,
  );
}
