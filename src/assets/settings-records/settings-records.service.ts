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
import { hasSearchWord, NO_SEARCH_WORDS } from "../../platform/search/word-filter.ts";
import { locations } from "../locations/locations.tables.ts";
import { parties } from "../parties/parties.tables.ts";
import { agreements } from "../agreements/agreements.tables.ts";
import { catalogCategories, catalogModels } from "../catalogue/catalogue.tables.ts";
import { locationText, type LocationRow } from "../locations/index.ts";
import { partyText, type PartyRow } from "../parties/index.ts";
import { agreementText, type AgreementRow } from "../agreements/index.ts";
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

type Register = typeof locations | typeof parties | typeof agreements | typeof catalogCategories | typeof catalogModels;

/**
 * One register as record rows: its own kind, name, code and parent expressions,
 * the record columns every archivable table shares, and its filters applied inside
 * (so FTS and indexes apply per table).
 */
function project(
  t: Register,
  type: string,
  own: { kind: SQL; name: SQL; code: SQL; parent: SQL },
  from: SQL,
  where: Array<SQL | undefined>,
  parentId: string | undefined,
): SQL {
  // A register without parents (parties, categories) has a NULL parent: parentId matches none of its records.
  if (parentId !== undefined) where = [...where, sql`${own.parent} = ${parentId}`];
  return sql`SELECT ${t.id} AS id, ${type} AS record_type, ${own.kind} AS kind, ${own.name} AS name, ${own.code} AS code,
    ${t.status} AS status, ${own.parent} AS parent_id, ${t.version} AS version, ${t.createdAt} AS created_at,
    ${t.updatedAt} AS updated_at, ${t.createdBy} AS created_by FROM ${from}${whereOf(where)}`;
}

/** The projection of one record type with its filters applied. */
function recordSource(type: SettingsRecordsQuery["recordType"], q: SettingsRecordsQuery, kinds: string[] | undefined): SQL {
  const text = q.q || undefined;
  const status = q.status?.length ? q.status : undefined;
  const statusIn = (t: Register) => (status ? inArray(t.status, status) : undefined);
  const NONE = sql`NULL`;
  switch (type) {
    case "location": {
      const match = text ? ftsMatchQuery(text) : null;
      const own = { kind: sql`${locations.kind}`, name: sql`${locations.name}`, code: sql`${locations.code}`, parent: sql`${locations.parentId}` };
      return project(locations, "location", own, sql`${locations}`, [
        match ? locationText(match) : undefined,
        statusIn(locations),
        kinds ? inArray(locations.kind, kinds as LocationRow["kind"][]) : undefined,
      ], q.parentId);
    }
    case "party": {
      const match = text ? ftsMatchQuery(text) : null;
      const own = { kind: sql`${parties.kind}`, name: sql`${parties.name}`, code: sql`${parties.externalRef}`, parent: NONE };
      return project(parties, "party", own, sql`${parties}`, [
        match ? partyText(match) : undefined,
        statusIn(parties),
        kinds ? inArray(parties.kind, kinds as PartyRow["kind"][]) : undefined,
      ], q.parentId);
    }
    case "agreement": {
      const name = sql`coalesce(${agreements.reference}, ${parties.name} || ' · ' || ${agreements.kind})`;
      const own = { kind: sql`${agreements.kind}`, name, code: sql`${agreements.reference}`, parent: sql`${agreements.partyId}` };
      return project(agreements, "agreement", own, sql`${agreements} JOIN ${parties} ON ${parties.id} = ${agreements.partyId}`, [
        text ? agreementText(text) : undefined,
        statusIn(agreements),
        kinds ? inArray(agreements.kind, kinds as AgreementRow["kind"][]) : undefined,
      ], q.parentId);
    }
    case "catalog": {
      const arms: SQL[] = [];
      if (!kinds || kinds.includes("category")) {
        const c = catalogCategories;
        const own = { kind: sql`'category'`, name: sql`${c.name}`, code: sql`${c.code}`, parent: NONE };
        arms.push(project(c, "catalog", own, sql`${c}`, [text ? catalogText(text, sql`${c.name}`, sql`${c.code}`) : undefined, statusIn(c)], q.parentId));
      }
      if (!kinds || kinds.includes("model")) {
        const m = catalogModels;
        const own = { kind: sql`'model'`, name: sql`${m.name}`, code: sql`${m.modelNumber}`, parent: sql`${m.categoryId}` };
        const match = text ? catalogText(text, sql`${m.name}`, sql`${m.modelNumber}`, sql`${m.manufacturer}`) : undefined;
        arms.push(project(m, "catalog", own, sql`${m}`, [match, statusIn(m)], q.parentId));
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
  // location and party text goes through FTS: text without a word to search for is a 400, as on /locations and /parties.
  if (q.q && (q.recordType === "location" || q.recordType === "party") && !hasSearchWord(q.q)) throw invalid("/query/q", NO_SEARCH_WORDS);
  const textApplies = Boolean(q.q);
  // Echo only: the conditions are built per table inside the record source.
  const filters = new FilterSet()
    .add("recordType", q.recordType)
    .add("q", textApplies ? q.q : undefined)
    .add("status", q.status)
    .add("kind", kinds)
    .add("parentId", q.parentId);
  const source = recordSource(q.recordType, { ...q, q: textApplies ? q.q : undefined }, kinds);
  const { items: records, ...page } = await paginate(
    ctx,
    {
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
