// Parties: the people and organisations assets are owned by, leased from or lent to.
// Other modules check the parties a request names through requireParty (or the
// *Exists helpers), so "unknown" and "archived" mean the same everywhere.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, withTx } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { visibleRows } from "../../platform/db/pending.ts";
import { insertRecord, loadOr404, recordExists, requireActive, updateVersioned } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate, type Page } from "../../platform/paging/paging.ts";
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
export const requireParty = (ctx: TenantCtx, id: string, path: string): Promise<PartyRow> => requireActive(ctx, parties, id, path, "party");

/** Whether an active party has this id. */
export const activePartyExists = (ctx: TenantCtx, id: string) => recordExists(ctx, parties, id, { activeOnly: true });

/** Whether a party has this id, whatever its status. */
export const partyExists = (ctx: TenantCtx, id: string) => recordExists(ctx, parties, id);

/** Active parties whose name equals one of `keys` ignoring case (keys given lower-cased): imports resolve names through it. */
export async function activePartiesNamed(ctx: TenantCtx, keys: string[]): Promise<PartyRow[]> {
  if (keys.length === 0) return [];
  return db(ctx).select().from(parties).where(and(eq(parties.status, "active"), inArray(sql`lower(${parties.name})`, keys), visibleRows(parties, ctx)));
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
  return toPartyDto(await withTx(ctx, (ctx) => insertRecord(ctx, parties, { name: input.name, kind: input.kind, externalRef: input.externalRef ?? null })));
}

export async function getParty(ctx: RequestCtx, id: string): Promise<PartyDto> {
  return toPartyDto(await loadOr404(db(ctx), parties, id, "party"));
}

/** Archiving keeps existing references (items, agreements); only new ones are refused. */
export async function updateParty(ctx: RequestCtx, id: string, input: UpdateParty): Promise<PartyDto> {
  return toPartyDto(await updateVersioned(ctx, parties, id, "party", input));
}

export async function listParties(ctx: RequestCtx, q: ListPartiesQuery): Promise<Page<PartyDto>> {
  const filters = new FilterSet()
    .add("q", q.q ? ftsMatchQuery(q.q) : null, partyText, q.q)
    .add("kind", q.kind, (v) => inArray(parties.kind, v))
    .add("status", q.status, (v) => inArray(parties.status, v));
  return listByUpdate(ctx, parties, q, filters, toPartyDto);
}
