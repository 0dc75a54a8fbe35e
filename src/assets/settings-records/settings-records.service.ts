// GET /settings/records: a named read model over the master-data registers (locations,
// parties, agreements, the catalogue). It reads their tables directly, as one uniform
// projection, and reuses each register's own text filter.
import { and, inArray, sql, type SQL } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { invalid } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { lazyAll } from "../../platform/db/database.ts";
import { FilterSet, paginate, type Page } from "../../platform/paging/paging.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { locations } from "../locations/locations.tables.ts";
import { parties } from "../parties/parties.tables.ts";
import { agreements } from "../agreements/agreements.tables.ts";
import { catalogCategories, catalogModels } from "../catalogue/catalogue.tables.ts";
import { locationText, type LocationRow } from "../locations/locations.service.ts";
import { partyText, type PartyRow } from "../parties/parties.service.ts";
import { agreementText, type AgreementRow } from "../agreements/agreements.service.ts";
import { RECORD_KINDS, type SettingsRecordDto, type SettingsRecordsQuery } from "./settings-records.schemas.ts";

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

/** q on the catalogue: a case-insensitive substring; the catalogue is small and bounded, so a scan is fine. */
function catalogText(text: string, ...cols: SQL[]): SQL {
  return sql`(${sql.join(
    cols.map((c) => sql`instr(lower(coalesce(${c}, '')), lower(${text})) > 0`),
    sql` OR `,
  )})`;
}

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
