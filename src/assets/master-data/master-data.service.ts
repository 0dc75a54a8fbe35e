// Master data: the location tree, parties, agreements and the catalogue, plus the
// uniform settings-record list over all four. Other modules validate references
// through the require* helpers, so "unknown" and "archived" mean the same everywhere.
import { and, asc, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import { sqliteTable, text, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, newRecordMeta, readSnapshot, withTx, type Querier, type RequestCtx } from "../../platform/http/context.ts";
import { lazyAll } from "../../platform/db/database.ts";
import { changesOf, loadOr404, saveVersion } from "../../platform/db/records.ts";
import { FilterSet, paginate, updatedOrder, type Page } from "../../platform/paging/paging.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { items } from "../items/items.tables.ts";
import { agreements, catalogCategories, catalogModels, locations, parties } from "./master-data.tables.ts";
import {
  DEFAULT_TERMS,
  ENDS_BEFORE_STARTS,
  RECORD_KINDS,
  type AgreementDto,
  type CatalogCategoryDetailDto,
  type CatalogCategoryDto,
  type CatalogModelDto,
  type CatalogQuery,
  type CreateAgreement,
  type CreateCatalogCategory,
  type CreateCatalogModel,
  type CreateLocation,
  type CreateParty,
  type ListAgreementsQuery,
  type ListLocationsQuery,
  type ListPartiesQuery,
  type LocationAncestor,
  type LocationDto,
  type PartyDto,
  type SettingsRecordDto,
  type SettingsRecordsQuery,
  type UpdateAgreement,
  type UpdateCatalogCategory,
  type UpdateCatalogModel,
  type UpdateLocation,
  type UpdateParty,
} from "./master-data.schemas.ts";

export type LocationRow = typeof locations.$inferSelect;
export type PartyRow = typeof parties.$inferSelect;
export type AgreementRow = typeof agreements.$inferSelect;
export type CategoryRow = typeof catalogCategories.$inferSelect;
export type ModelRow = typeof catalogModels.$inferSelect;

/** Deeper than this the ancestor walk stops: a guard against a corrupted tree, never reached by a valid one. */
const MAX_TREE_DEPTH = 1000;

// ---------------------------------------------------------------- DTOs

const meta = (r: { id: string; status: "active" | "archived"; version: number; createdAt: string; updatedAt: string; createdBy: string }) => ({
  id: r.id,
  status: r.status,
  version: r.version,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  createdBy: r.createdBy,
});

export function toLocationDto(r: LocationRow): LocationDto {
  return { ...meta(r), name: r.name, kind: r.kind, parentId: r.parentId, code: r.code };
}

export function toPartyDto(r: PartyRow): PartyDto {
  return { ...meta(r), name: r.name, kind: r.kind, externalRef: r.externalRef };
}

export function toAgreementDto(r: AgreementRow): AgreementDto {
  return { ...meta(r), kind: r.kind, partyId: r.partyId, startsOn: r.startsOn, endsOn: r.endsOn, reference: r.reference, terms: r.terms };
}

export function toCategoryDto(r: CategoryRow): CatalogCategoryDto {
  return { ...meta(r), name: r.name, code: r.code };
}

export function toModelDto(r: ModelRow): CatalogModelDto {
  return { ...meta(r), name: r.name, categoryId: r.categoryId, manufacturer: r.manufacturer, modelNumber: r.modelNumber };
}

// ---------------------------------------------------------------- references

/**
 * The reference checks other modules use for ids named in a request body: a missing
 * or archived record is a 400 at `path` (e.g. `/body/locationId`), never a 404.
 */
export async function requireLocation(q: Querier, id: string, path: string): Promise<LocationRow> {
  const row = (await q.select().from(locations).where(eq(locations.id, id)))[0];
  if (!row) throw invalid(path, "unknown location");
  if (row.status !== "active") throw invalid(path, "location is archived");
  return row;
}

export async function requireParty(q: Querier, id: string, path: string): Promise<PartyRow> {
  const row = (await q.select().from(parties).where(eq(parties.id, id)))[0];
  if (!row) throw invalid(path, "unknown party");
  if (row.status !== "active") throw invalid(path, "party is archived");
  return row;
}

export async function requireAgreement(q: Querier, id: string, path: string): Promise<AgreementRow> {
  const row = (await q.select().from(agreements).where(eq(agreements.id, id)))[0];
  if (!row) throw invalid(path, "unknown agreement");
  if (row.status !== "active") throw invalid(path, "agreement is archived");
  return row;
}

export async function requireCategory(q: Querier, id: string, path: string): Promise<CategoryRow> {
  const row = (await q.select().from(catalogCategories).where(eq(catalogCategories.id, id)))[0];
  if (!row) throw invalid(path, "unknown category");
  if (row.status !== "active") throw invalid(path, "category is archived");
  return row;
}

export async function requireModel(q: Querier, id: string, path: string): Promise<ModelRow> {
  const row = (await q.select().from(catalogModels).where(eq(catalogModels.id, id)))[0];
  if (!row) throw invalid(path, "unknown model");
  if (row.status !== "active") throw invalid(path, "model is archived");
  return row;
}

/**
 * The location and its ancestors, root first, ending with the location itself
 * (one recursive CTE over the parent index). Empty when the id is unknown.
 * Await it, or put it in a snapshot to read it with other reads.
 */
export function locationPath(q: Querier, id: string) {
  return lazyAll<LocationAncestor>(q, sql`
    WITH RECURSIVE up(id, parent_id, name, kind, depth) AS (
      SELECT id, parent_id, name, kind, 0 FROM locations WHERE id = ${id}
      UNION ALL
      SELECT l.id, l.parent_id, l.name, l.kind, up.depth + 1 FROM locations l JOIN up ON l.id = up.parent_id
      WHERE up.depth < ${MAX_TREE_DEPTH})
    SELECT id, name, kind FROM up ORDER BY depth DESC`);
}

// ---------------------------------------------------------------- shared rules

const ftsRowids = (table: "locations_fts" | "parties_fts", match: string) =>
  sql.raw(`(SELECT rowid FROM ${table} WHERE ${table} MATCH `).append(sql`${match})`);

function locationText(match: string): SQL {
  return sql`${locations}.rowid IN ${ftsRowids("locations_fts", match)}`;
}

function partyText(match: string): SQL {
  return sql`${parties}.rowid IN ${ftsRowids("parties_fts", match)}`;
}

/** q on agreements: a case-insensitive reference prefix (expression index), or the counterparty by FTS. */
function agreementText(text: string): SQL {
  const refPrefix = sql`(lower(${agreements.reference}) >= lower(${text}) AND lower(${agreements.reference}) < lower(${text}) || char(1114111))`;
  const match = ftsMatchQuery(text);
  if (!match) return refPrefix;
  return sql`(${refPrefix} OR ${agreements.partyId} IN (SELECT id FROM parties WHERE rowid IN ${ftsRowids("parties_fts", match)}))`;
}

/** q on the catalogue: a case-insensitive substring; the catalogue is small and bounded, so a scan is fine. */
function catalogText(text: string, ...cols: SQL[]): SQL {
  return sql`(${sql.join(
    cols.map((c) => sql`instr(lower(coalesce(${c}, '')), lower(${text})) > 0`),
    sql` OR `,
  )})`;
}

// ---------------------------------------------------------------- locations

async function assertLocationCodeFree(q: Querier, code: string, exceptId?: string): Promise<void> {
  const clash = (await q.select({ id: locations.id }).from(locations).where(eq(locations.code, code)))[0];
  if (clash && clash.id !== exceptId) throw new AppError("duplicate", `location code ${JSON.stringify(code)} is already in use`);
}

export async function createLocation(ctx: RequestCtx, input: CreateLocation): Promise<LocationDto> {
  return withTx(ctx, async (tx) => {
    if (input.parentId !== undefined) await requireLocation(tx, input.parentId, "/body/parentId");
    if (input.code !== undefined) await assertLocationCodeFree(tx, input.code);
    const row: LocationRow = {
      ...newRecordMeta(ctx),
      parentId: input.parentId ?? null,
      name: input.name,
      kind: input.kind,
      code: input.code ?? null,
      status: "active",
    };
    await tx.insert(locations).values(row);
    return toLocationDto(row);
  });
}

export async function getLocation(ctx: RequestCtx, id: string): Promise<LocationDto & { path: LocationAncestor[] }> {
  const [rows, chain] = await readSnapshot(ctx, (q) => [q.select().from(locations).where(eq(locations.id, id)), locationPath(q, id)] as const);
  const row = rows[0];
  if (!row) throw notFound("location");
  return { ...toLocationDto(row), path: chain.slice(0, -1) };
}

export async function updateLocation(ctx: RequestCtx, id: string, input: UpdateLocation): Promise<LocationDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadOr404(tx, locations, id, "location");
    const { expectedVersion, ...fields } = input;
    const change = changesOf(row, fields);
    // 400s for referenced ids come before the 409s.
    if (change.parentId) await requireLocation(tx, change.parentId, "/body/parentId");
    assertVersion("location", row, expectedVersion);
    if (Object.keys(change).length === 0) return toLocationDto(row);

    if (change.parentId) {
      // The new parent may not be the location itself or lie anywhere below it.
      const hit = await tx.all<{ hit: number }>(sql`
        WITH RECURSIVE up(id) AS (
          SELECT ${change.parentId}
          UNION SELECT l.parent_id FROM locations l JOIN up ON l.id = up.id WHERE l.parent_id IS NOT NULL)
        SELECT 1 AS hit FROM up WHERE id = ${id} LIMIT 1`);
      if (hit.length) throw new AppError("cycle_detected", "the new parent is this location or lies inside its subtree");
    }
    if (change.code) await assertLocationCodeFree(tx, change.code, id);
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

    return toLocationDto(await saveVersion(tx, locations, row, change, ctx.nowIso));
  });
}

export async function listLocations(ctx: RequestCtx, q: ListLocationsQuery): Promise<Page<LocationDto>> {
  const filters = new FilterSet()
    .add("q", q.q ? ftsMatchQuery(q.q) : null, locationText, q.q)
    .add("kind", q.kind, (v) => inArray(locations.kind, v))
    .add("status", q.status, (v) => inArray(locations.status, v))
    .add("parentId", q.parentId, (v) => eq(locations.parentId, v));
  return paginate(
    ctx,
    {
      route: "GET /locations",
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...updatedOrder(locations),
      where: filters.where(),
    },
    toLocationDto,
  );
}

// ---------------------------------------------------------------- parties

export async function createParty(ctx: RequestCtx, input: CreateParty): Promise<PartyDto> {
  return withTx(ctx, async (tx) => {
    const row: PartyRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      kind: input.kind,
      externalRef: input.externalRef ?? null,
      status: "active",
    };
    await tx.insert(parties).values(row);
    return toPartyDto(row);
  });
}

export async function getParty(ctx: RequestCtx, id: string): Promise<PartyDto> {
  return toPartyDto(await loadOr404(db(ctx), parties, id, "party"));
}

export async function updateParty(ctx: RequestCtx, id: string, input: UpdateParty): Promise<PartyDto> {
  return withTx(ctx, async (tx) => {
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

// ---------------------------------------------------------------- agreements

export async function createAgreement(ctx: RequestCtx, input: CreateAgreement): Promise<AgreementDto> {
  if (input.endsOn !== undefined && input.endsOn < input.startsOn) throw invalid("/body/endsOn", ENDS_BEFORE_STARTS);
  return withTx(ctx, async (tx) => {
    await requireParty(tx, input.partyId, "/body/partyId");
    const row: AgreementRow = {
      ...newRecordMeta(ctx),
      kind: input.kind,
      partyId: input.partyId,
      startsOn: input.startsOn,
      endsOn: input.endsOn ?? null,
      reference: input.reference ?? null,
      terms: input.terms ?? DEFAULT_TERMS[input.kind],
      status: "active",
    };
    await tx.insert(agreements).values(row);
    return toAgreementDto(row);
  });
}

export async function getAgreement(ctx: RequestCtx, id: string): Promise<AgreementDto> {
  return toAgreementDto(await loadOr404(db(ctx), agreements, id, "agreement"));
}

export async function updateAgreement(ctx: RequestCtx, id: string, input: UpdateAgreement): Promise<AgreementDto> {
  if (input.startsOn !== undefined && input.endsOn && input.endsOn < input.startsOn) throw invalid("/body/endsOn", ENDS_BEFORE_STARTS);
  return withTx(ctx, async (tx) => {
    const row = await loadOr404(tx, agreements, id, "agreement");
    const { expectedVersion, ...fields } = input;
    const change = changesOf(row, fields);
    if (change.partyId) await requireParty(tx, change.partyId, "/body/partyId");
    const startsOn = change.startsOn ?? row.startsOn;
    const endsOn = change.endsOn !== undefined ? change.endsOn : row.endsOn;
    if (endsOn !== null && endsOn < startsOn) {
      throw invalid(input.endsOn !== undefined ? "/body/endsOn" : "/body/startsOn", input.endsOn !== undefined ? ENDS_BEFORE_STARTS : "must not be after endsOn");
    }
    assertVersion("agreement", row, expectedVersion);
    if (Object.keys(change).length === 0) return toAgreementDto(row);
    return toAgreementDto(await saveVersion(tx, agreements, row, change, ctx.nowIso));
  });
}

export async function listAgreements(ctx: RequestCtx, q: ListAgreementsQuery): Promise<Page<AgreementDto>> {
  const filters = new FilterSet()
    .add("q", q.q, agreementText)
    .add("kind", q.kind, (v) => inArray(agreements.kind, v))
    .add("status", q.status, (v) => inArray(agreements.status, v))
    .add("partyId", q.partyId, (v) => eq(agreements.partyId, v));
  return paginate(
    ctx,
    {
      route: "GET /agreements",
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...updatedOrder(agreements),
      where: filters.where(),
    },
    toAgreementDto,
  );
}

// ---------------------------------------------------------------- catalogue

async function assertCategoryCodeFree(q: Querier, code: string, exceptId?: string): Promise<void> {
  const clash = (await q.select({ id: catalogCategories.id }).from(catalogCategories).where(eq(catalogCategories.code, code)))[0];
  if (clash && clash.id !== exceptId) throw new AppError("duplicate", `category code ${JSON.stringify(code)} is already in use`);
}

export async function createCategory(ctx: RequestCtx, input: CreateCatalogCategory): Promise<CatalogCategoryDto> {
  return withTx(ctx, async (tx) => {
    if (input.code !== undefined) await assertCategoryCodeFree(tx, input.code);
    const row: CategoryRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      code: input.code ?? null,
      status: "active",
    };
    await tx.insert(catalogCategories).values(row);
    return toCategoryDto(row);
  });
}

const byName = (name: SQLiteColumn, id: SQLiteColumn) => [
  asc(sql`${name} COLLATE NOCASE`),
  asc(id),
];

export async function getCategory(ctx: RequestCtx, id: string): Promise<CatalogCategoryDetailDto> {
  const [rows, models] = await readSnapshot(ctx, (q) => [
    q.select().from(catalogCategories).where(eq(catalogCategories.id, id)),
    q.select().from(catalogModels).where(eq(catalogModels.categoryId, id)).orderBy(...byName(catalogModels.name, catalogModels.id)),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("category");
  return { ...toCategoryDto(row), models: models.map(toModelDto) };
}

export async function updateCategory(ctx: RequestCtx, id: string, input: UpdateCatalogCategory): Promise<CatalogCategoryDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadOr404(tx, catalogCategories, id, "category");
    const { expectedVersion, ...fields } = input;
    assertVersion("category", row, expectedVersion);
    const change = changesOf(row, fields);
    if (Object.keys(change).length === 0) return toCategoryDto(row);
    if (change.code) await assertCategoryCodeFree(tx, change.code, id);
    if (change.status === "archived") {
      const live = await tx
        .select({ id: catalogModels.id })
        .from(catalogModels)
        .where(and(eq(catalogModels.categoryId, id), eq(catalogModels.status, "active")))
        .limit(1);
      if (live.length) throw new AppError("state_conflict", "the category still has active models; archive or move them first");
    }
    return toCategoryDto(await saveVersion(tx, catalogCategories, row, change, ctx.nowIso));
  });
}

export async function createModel(ctx: RequestCtx, input: CreateCatalogModel): Promise<CatalogModelDto> {
  return withTx(ctx, async (tx) => {
    await requireCategory(tx, input.categoryId, "/body/categoryId");
    const row: ModelRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      categoryId: input.categoryId,
      manufacturer: input.manufacturer ?? null,
      modelNumber: input.modelNumber ?? null,
      status: "active",
    };
    await tx.insert(catalogModels).values(row);
    return toModelDto(row);
  });
}

export async function getModel(ctx: RequestCtx, id: string): Promise<CatalogModelDto> {
  return toModelDto(await loadOr404(db(ctx), catalogModels, id, "model"));
}

export async function updateModel(ctx: RequestCtx, id: string, input: UpdateCatalogModel): Promise<CatalogModelDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadOr404(tx, catalogModels, id, "model");
    const { expectedVersion, ...fields } = input;
    const change = changesOf(row, fields);
    if (change.categoryId) await requireCategory(tx, change.categoryId, "/body/categoryId");
    assertVersion("model", row, expectedVersion);
    if (Object.keys(change).length === 0) return toModelDto(row);
    if (change.status === "active" && change.categoryId === undefined) {
      const category = await loadOr404(tx, catalogCategories, row.categoryId, "category");
      if (category.status !== "active") throw new AppError("state_conflict", "the model's category is archived; unarchive it first");
    }
    return toModelDto(await saveVersion(tx, catalogModels, row, change, ctx.nowIso));
  });
}

/** GET /catalog: every category with its models, both by name, read in one snapshot. */
export async function getCatalog(ctx: RequestCtx, q: CatalogQuery): Promise<{ items: CatalogCategoryDetailDto[] }> {
  const cats = (qr: Querier) =>
    qr
      .select()
      .from(catalogCategories)
      .where(q.status?.length ? inArray(catalogCategories.status, q.status) : undefined)
      .orderBy(...byName(catalogCategories.name, catalogCategories.id));
  const mods = (qr: Querier) =>
    qr
      .select()
      .from(catalogModels)
      .where(q.status?.length ? inArray(catalogModels.status, q.status) : undefined)
      .orderBy(...byName(catalogModels.name, catalogModels.id));
  // One snapshot: no model without its category.
  const [categoryRows, modelRows] = await readSnapshot(ctx, (qr) => [cats(qr), mods(qr)] as const);
  const byCategory = new Map<string, CatalogModelDto[]>();
  for (const m of modelRows) {
    const list = byCategory.get(m.categoryId) ?? [];
    list.push(toModelDto(m));
    byCategory.set(m.categoryId, list);
  }
  return { items: categoryRows.map((c) => ({ ...toCategoryDto(c), models: byCategory.get(c.id) ?? [] })) };
}

// ---------------------------------------------------------------- settings records

/** The projected row of GET /settings/records, the same columns for every record type. */
interface RecordRow {
  id: string;
  record_type: SettingsRecordDto["recordType"];
  kind: string;
  name: string;
  code: string | null;
  status: SettingsRecordDto["status"];
  parent_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  created_by: string;
}

/** The alias of the projection subquery, so paginate's keyset and order can name its columns. */
const rec = sqliteTable("r", { id: text("id").notNull(), updatedAt: text("updated_at").notNull() });

function toSettingsRecordDto(r: RecordRow): SettingsRecordDto {
  return {
    id: r.id,
    recordType: r.record_type,
    kind: r.kind,
    name: r.name,
    code: r.code,
    status: r.status,
    parentId: r.parent_id,
    version: Number(r.version),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
  };
}

const whereOf = (conds: Array<SQL | undefined>) => {
  const w = and(...conds);
  return w ? sql` WHERE ${w}` : sql``;
};

/** The projection of one record type with its filters applied inside (so FTS and indexes apply per table). */
function recordSource(type: SettingsRecordsQuery["recordType"], q: SettingsRecordsQuery, kinds: string[] | undefined): SQL {
  const text = q.q || undefined;
  const status = q.status?.length ? q.status : undefined;
  switch (type) {
    case "location": {
      const match = text ? ftsMatchQuery(text) : null;
      return sql`SELECT ${locations.id} AS id, 'location' AS record_type, ${locations.kind} AS kind, ${locations.name} AS name,
        ${locations.code} AS code, ${locations.status} AS status, ${locations.parentId} AS parent_id, ${locations.version} AS version,
        ${locations.createdAt} AS created_at, ${locations.updatedAt} AS updated_at, ${locations.createdBy} AS created_by
        FROM ${locations}${whereOf([
          match ? locationText(match) : undefined,
          status ? inArray(locations.status, status) : undefined,
          kinds ? inArray(locations.kind, kinds as LocationRow["kind"][]) : undefined,
        ])}`;
    }
    case "party": {
      const match = text ? ftsMatchQuery(text) : null;
      return sql`SELECT ${parties.id} AS id, 'party' AS record_type, ${parties.kind} AS kind, ${parties.name} AS name,
        ${parties.externalRef} AS code, ${parties.status} AS status, NULL AS parent_id, ${parties.version} AS version,
        ${parties.createdAt} AS created_at, ${parties.updatedAt} AS updated_at, ${parties.createdBy} AS created_by
        FROM ${parties}${whereOf([
          match ? partyText(match) : undefined,
          status ? inArray(parties.status, status) : undefined,
          kinds ? inArray(parties.kind, kinds as PartyRow["kind"][]) : undefined,
        ])}`;
    }
    case "agreement":
      return sql`SELECT ${agreements.id} AS id, 'agreement' AS record_type, ${agreements.kind} AS kind,
        coalesce(${agreements.reference}, ${parties.name} || ' · ' || ${agreements.kind}) AS name,
        ${agreements.reference} AS code, ${agreements.status} AS status, ${agreements.partyId} AS parent_id, ${agreements.version} AS version,
        ${agreements.createdAt} AS created_at, ${agreements.updatedAt} AS updated_at, ${agreements.createdBy} AS created_by
        FROM ${agreements} JOIN ${parties} ON ${parties.id} = ${agreements.partyId}${whereOf([
          text ? agreementText(text) : undefined,
          status ? inArray(agreements.status, status) : undefined,
          kinds ? inArray(agreements.kind, kinds as AgreementRow["kind"][]) : undefined,
        ])}`;
    case "catalog": {
      const arms: SQL[] = [];
      if (!kinds || kinds.includes("category")) {
        arms.push(sql`SELECT ${catalogCategories.id} AS id, 'catalog' AS record_type, 'category' AS kind, ${catalogCategories.name} AS name,
          ${catalogCategories.code} AS code, ${catalogCategories.status} AS status, NULL AS parent_id, ${catalogCategories.version} AS version,
          ${catalogCategories.createdAt} AS created_at, ${catalogCategories.updatedAt} AS updated_at, ${catalogCategories.createdBy} AS created_by
          FROM ${catalogCategories}${whereOf([
            text ? catalogText(text, sql`${catalogCategories.name}`, sql`${catalogCategories.code}`) : undefined,
            status ? inArray(catalogCategories.status, status) : undefined,
          ])}`);
      }
      if (!kinds || kinds.includes("model")) {
        arms.push(sql`SELECT ${catalogModels.id} AS id, 'catalog' AS record_type, 'model' AS kind, ${catalogModels.name} AS name,
          ${catalogModels.modelNumber} AS code, ${catalogModels.status} AS status, ${catalogModels.categoryId} AS parent_id,
          ${catalogModels.version} AS version, ${catalogModels.createdAt} AS created_at, ${catalogModels.updatedAt} AS updated_at,
          ${catalogModels.createdBy} AS created_by
          FROM ${catalogModels}${whereOf([
            text
              ? catalogText(text, sql`${catalogModels.name}`, sql`${catalogModels.modelNumber}`, sql`${catalogModels.manufacturer}`)
              : undefined,
            status ? inArray(catalogModels.status, status) : undefined,
          ])}`);
      }
      return sql.join(arms, sql` UNION ALL `);
    }
  }
}

/**
 * GET /settings/records: one register as uniform records, (updatedAt, id) descending,
 * exact total. The catalogue is its categories and models together (UNION ALL).
 */
export async function listSettingsRecords(
  ctx: RequestCtx,
  q: SettingsRecordsQuery,
): Promise<Omit<Page<SettingsRecordDto>, "items"> & { records: SettingsRecordDto[] }> {
  const allowed = RECORD_KINDS[q.recordType];
  const bad = q.kind?.filter((k) => !allowed.includes(k));
  if (bad?.length) throw invalid("/query/kind", `kinds of ${q.recordType} records are ${allowed.join(", ")}`);
  const kinds = q.kind?.length ? q.kind : undefined;
  // location and party text goes through FTS: without letters or digits it applies no filter.
  const textApplies = q.q ? (q.recordType === "location" || q.recordType === "party" ? ftsMatchQuery(q.q) !== null : true) : false;
  // Echo only: the conditions are built per table inside the record source.
  const filters = new FilterSet()
    .add("recordType", q.recordType)
    .add("q", textApplies ? q.q : undefined)
    .add("status", q.status)
    .add("kind", kinds);
  const source = recordSource(q.recordType, { ...q, q: textApplies ? q.q : undefined }, kinds);
  const { items: records, ...page } = await paginate(
    ctx,
    {
      route: "GET /settings/records",
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: rec.updatedAt,
      orderId: rec.id,
      // Filters live inside the source; paginate's where carries only the keyset.
      page: (qr, w, orderBy, limit) =>
        lazyAll<RecordRow>(qr, sql`SELECT * FROM (${source}) AS ${rec}${w ? sql` WHERE ${w}` : sql``} ORDER BY ${sql.join(orderBy, sql`, `)} LIMIT ${limit}`),
      count: (qr) => lazyAll<{ n: number }>(qr, sql`SELECT count(*) AS n FROM (${source})`),
      position: (r) => ({ t: r.updated_at, i: r.id }),
    },
    toSettingsRecordDto,
  );
  // Contract §7: this list's property is `records`.
  return { records, ...page };
}
