// GET /hub/records and GET /hub/records/{id}: the companion records as one uniform
// projection. A list reads one record type's own table, ordered by that type's
// authoritative timestamp and id (descending), with its exact total and cursor.
import { count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { readSnapshot } from "../../../platform/db/transactions.ts";
import { historyOf, toEventDto } from "../../../platform/db/history.ts";
import { FilterSet, paginate, type Page } from "../../../platform/paging/paging.ts";
import { continuityRuns } from "../continuity/continuity.tables.ts";
import { dockAppointments } from "../dock/dock.tables.ts";
import { hubRecordEvents } from "../hub.tables.ts";
import { qualityHolds } from "../holds/holds.tables.ts";
import { replenishmentRules } from "../replenishment/replenishment.tables.ts";
import { toDockAppointmentDto, type DockAppointmentRow } from "../dock/dock.service.ts";
import { toQualityHoldDto, type QualityHoldRow } from "../holds/holds.service.ts";
import { toReplenishmentRuleDto, type ReplenishmentRuleRow } from "../replenishment/replenishment.service.ts";
import { toContinuityRunDto, type ContinuityRunRow } from "../continuity/continuity.service.ts";
import { prefixOf } from "../tasks/tasks.service.ts";
import { RULE_STATES, type HubRecordDto, type ListHubRecordsQuery } from "./records.schemas.ts";

export function appointmentRecord(r: DockAppointmentRow): HubRecordDto {
  return { ...meta(r), recordType: "appointment", kind: r.kind, title: r.carrier, status: r.status, at: r.scheduledAt, locationId: r.locationId, detail: toDockAppointmentDto(r) };
}

export function holdRecord(r: QualityHoldRow): HubRecordDto {
  return { ...meta(r), recordType: "hold", kind: r.kind, title: r.reason, status: r.status, at: r.placedAt, locationId: null, detail: toQualityHoldDto(r) };
}

export function ruleRecord(r: ReplenishmentRuleRow): HubRecordDto {
  const title = r.label ?? `min ${r.min}, max ${r.max}`;
  return { ...meta(r), recordType: "rule", kind: null, title, status: "active", at: r.updatedAt, locationId: r.locationId, detail: toReplenishmentRuleDto(r) };
}

export function continuityRecord(r: ContinuityRunRow): HubRecordDto {
  return { ...meta(r), recordType: "continuity", kind: null, title: r.scenario, status: r.status, at: r.startedAt, locationId: null, detail: toContinuityRunDto(r) };
}

function meta(r: { id: string; version: number; createdAt: string; updatedAt: string; createdBy: string }) {
  return { id: r.id, version: r.version, createdAt: r.createdAt, updatedAt: r.updatedAt, createdBy: r.createdBy };
}

/** The status condition: only the statuses this record type has; none of them matches nothing. */
function statusIn<S extends string>(column: SQLiteColumn, own: readonly S[], wanted: string[]): SQL {
  const mine = wanted.filter((s): s is S => (own as readonly string[]).includes(s));
  return mine.length > 0 ? inArray(column, mine) : sql`0`;
}

type HubRecordTable = typeof dockAppointments | typeof qualityHolds | typeof replenishmentRules | typeof continuityRuns;
type ListResult = Omit<Page<HubRecordDto>, "items"> & { records: HubRecordDto[] };

/**
 * The one page of a record type: its table's rows in (timestamp, id) order under
 * `where`, mapped to the uniform projection. Each table has an index led by the
 * timestamp, and one led by status then timestamp, so page and total stay cheap.
 */
async function pageOf<Row extends { id: string }>(
  ctx: RequestCtx,
  q: ListHubRecordsQuery,
  filters: FilterSet,
  source: { table: HubRecordTable; ts: SQLiteColumn; tsOf: (r: Row) => string; toRecord: (r: Row) => HubRecordDto },
): Promise<ListResult> {
  const { items: records, ...page } = await paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: source.ts,
      orderId: source.table.id,
      where: filters.where(),
      // Drizzle takes one table type: the source's table stands as one, and its rows are Row.
      page: (qr, where, orderBy, limit) => qr.select().from(source.table as typeof dockAppointments).where(where).orderBy(...orderBy).limit(limit) as PromiseLike<Row[]>,
      count: (qr, where) => qr.select({ n: count() }).from(source.table as typeof dockAppointments).where(where),
      position: (r) => ({ t: source.tsOf(r), i: r.id }),
    },
    source.toRecord,
  );
  // Contract §7: this list's property is `records`.
  return { records, ...page };
}

export async function listHubRecords(ctx: RequestCtx, q: ListHubRecordsQuery): Promise<ListResult> {
  const status = q.status ?? [];
  const filters = new FilterSet().add("recordType", q.recordType);
  switch (q.recordType) {
    case "appointment": {
      const t = dockAppointments;
      filters
        .add("q", q.q, (v) => or(prefixOf(sql`${t.carrier}`, v), prefixOf(sql`${t.reference}`, v)))
        .add("status", q.status, () => statusIn(t.status, t.status.enumValues, status));
      return pageOf<DockAppointmentRow>(ctx, q, filters, { table: t, ts: t.scheduledAt, tsOf: (r) => r.scheduledAt, toRecord: appointmentRecord });
    }
    case "hold": {
      const t = qualityHolds;
      filters
        .add("q", q.q, (v) => or(prefixOf(sql`${t.reason}`, v), prefixOf(sql`${t.reference}`, v)))
        .add("status", q.status, () => statusIn(t.status, t.status.enumValues, status));
      return pageOf<QualityHoldRow>(ctx, q, filters, { table: t, ts: t.placedAt, tsOf: (r) => r.placedAt, toRecord: holdRecord });
    }
    case "rule": {
      const t = replenishmentRules;
      filters
        .add("q", q.q, (v) => prefixOf(sql`${t.label}`, v))
        // Every rule is `active`: a filter naming it applies nothing, one without it matches nothing.
        .add("status", q.status, (v) => (v.some((s) => (RULE_STATES as readonly string[]).includes(s)) ? undefined : sql`0`));
      return pageOf<ReplenishmentRuleRow>(ctx, q, filters, { table: t, ts: t.updatedAt, tsOf: (r) => r.updatedAt, toRecord: ruleRecord });
    }
    case "continuity": {
      const t = continuityRuns;
      filters
        .add("q", q.q, (v) => prefixOf(sql`${t.scenario}`, v))
        .add("status", q.status, () => statusIn(t.status, t.status.enumValues, status));
      return pageOf<ContinuityRunRow>(ctx, q, filters, { table: t, ts: t.startedAt, tsOf: (r) => r.startedAt, toRecord: continuityRecord });
    }
  }
}

/** One companion record, whatever its type (ids are unique across them), with its history. */
export async function getHubRecord(ctx: RequestCtx, id: string) {
  const [appointments, holds, rules, runs, events] = await readSnapshot(ctx, (q) => [
    q.select().from(dockAppointments).where(eq(dockAppointments.id, id)),
    q.select().from(qualityHolds).where(eq(qualityHolds.id, id)),
    q.select().from(replenishmentRules).where(eq(replenishmentRules.id, id)),
    q.select().from(continuityRuns).where(eq(continuityRuns.id, id)),
    historyOf(q, hubRecordEvents, id),
  ] as const);
  const record = appointments[0]
    ? appointmentRecord(appointments[0])
    : holds[0]
      ? holdRecord(holds[0])
      : rules[0]
        ? ruleRecord(rules[0])
        : runs[0]
          ? continuityRecord(runs[0])
          : undefined;
  if (!record) throw notFound("hub record");
  return { ...record, events: events.map((e) => toEventDto(e)) };
}
