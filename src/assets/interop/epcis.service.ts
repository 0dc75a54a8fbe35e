// GET /interoperability/epcis: the movement chronology of a time window as one
// EPCISDocument. Bounded (at most EPCIS_MAX_EVENTS events and EPCIS_MAX_DAYS days)
// so a document is built in memory once and validated as a whole.
import { and, asc, count, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { visibleRows } from "../../platform/db/pending.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { db } from "../../platform/db/transactions.ts";
import { invalid } from "../../platform/errors/app-error.ts";
import { FilterSet } from "../../platform/paging/paging.ts";
import { movements } from "../kernel/kernel.tables.ts";
import { identifiers } from "../identity/identity.tables.ts";
import {
  AMS_EPCIS_NAMESPACE,
  EPCIS_CONTEXT_URL,
  EPCIS_MAX_DAYS,
  EPCIS_MAX_EVENTS,
  type EpcisExportDocument,
  type ExportEpcisQuery,
} from "./epcis.schemas.ts";
import { toEpcisEvent, type MovementForExport } from "./epcis.mapping.ts";

const DAY_MS = 86_400_000;
const CHUNK = 500;

const correction = sql`(SELECT c.id || ' ' || c.recorded_at FROM movements c WHERE c.corrects_id = "movements"."id" LIMIT 1)`;

/** 400 unless from < to and the window spans at most EPCIS_MAX_DAYS days. `where` names the request part. */
export function checkWindow(q: Pick<ExportEpcisQuery, "from" | "to">, where: "query" | "body"): void {
  if (q.from >= q.to) throw invalid(`/${where}/to`, "must be after from");
  if (Date.parse(q.to) - Date.parse(q.from) > EPCIS_MAX_DAYS * DAY_MS) {
    throw invalid(`/${where}/to`, `an EPCIS export covers at most ${EPCIS_MAX_DAYS} days; narrow from/to`);
  }
}

function filtersOf(q: ExportEpcisQuery) {
  const f = new FilterSet()
    .add("from", q.from, (v) => gte(movements.eventTime, v))
    .add("to", q.to, (v) => lt(movements.eventTime, v))
    .add("itemId", q.itemId, (v) => eq(movements.itemId, v))
    .add("kind", q.kind, (v) => inArray(movements.kind, v));
  return { filters: f.applied, where: f.where() };
}

const tooMany = (part: "query" | "body") =>
  invalid(
    `/${part}/from`,
    `the window holds more than ${EPCIS_MAX_EVENTS} events; an EPCIS export carries at most ${EPCIS_MAX_EVENTS}: narrow from/to or filter by itemId or kind`,
  );

/** 400 unless the window is valid and holds at most EPCIS_MAX_EVENTS events (checked before a job is queued). */
export async function checkExportBounds(ctx: TenantCtx, q: ExportEpcisQuery, part: "query" | "body"): Promise<void> {
  checkWindow(q, part);
  const [r] = await db(ctx).select({ n: count() }).from(movements).where(and(filtersOf(q).where, visibleRows(movements)));
  if ((r?.n ?? 0) > EPCIS_MAX_EVENTS) throw tooMany(part);
}

/** The window's movements in event-time order; 400 when there are more than EPCIS_MAX_EVENTS. */
async function readMovements(ctx: TenantCtx, where: SQL | undefined, part: "query" | "body"): Promise<MovementForExport[]> {
  const rows = await db(ctx)
    .select({ ...getTableColumns(movements), correction })
    .from(movements)
    .where(and(where, visibleRows(movements)))
    .orderBy(asc(movements.eventTime), asc(movements.recordedAt), asc(movements.id))
    .limit(EPCIS_MAX_EVENTS + 1);
  if (rows.length > EPCIS_MAX_EVENTS) throw tooMany(part);
  return rows.map((r) => {
    const [by, at] = typeof r.correction === "string" ? r.correction.split(" ") : [null, null];
    return { ...r, correctedBy: by ?? null, correctedAt: at ?? null };
  });
}

/**
 * Each item's EPC for the export, stable across exports: its first identifier
 * (by issue) with an EPC URN, else its first with a GS1 Digital Link, else
 * `urn:uuid:` + the item id. Retired identifiers count: past events were observed
 * under them.
 */
export async function itemUris(ctx: TenantCtx, itemIds: string[]): Promise<Map<string, string>> {
  const byItem = new Map<string, { epc?: string; dl?: string }>();
  const unique = [...new Set(itemIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db(ctx)
      .select({ itemId: identifiers.itemId, epcUri: identifiers.epcUri, digitalLink: identifiers.digitalLink })
      .from(identifiers)
      .where(inArray(identifiers.itemId, unique.slice(i, i + CHUNK)))
      .orderBy(asc(identifiers.createdAt), asc(identifiers.id));
    for (const r of rows) {
      const e = byItem.get(r.itemId) ?? {};
      if (r.epcUri && !e.epc) e.epc = r.epcUri;
      if (r.digitalLink && !e.dl) e.dl = r.digitalLink;
      byItem.set(r.itemId, e);
    }
  }
  return new Map(unique.map((id) => [id, byItem.get(id)?.epc ?? byItem.get(id)?.dl ?? `urn:uuid:${id}`]));
}

/** Builds the EPCISDocument of a window (`part` names where the window came from, for 400 paths). */
export async function exportEpcis(ctx: TenantCtx, q: ExportEpcisQuery, part: "query" | "body" = "query"): Promise<EpcisExportDocument> {
  checkWindow(q, part);
  const { filters, where } = filtersOf(q);
  const rows = await readMovements(ctx, where, part);
  const uris = await itemUris(ctx, rows.map((r) => r.itemId));
  return {
    "@context": [EPCIS_CONTEXT_URL, { ams: AMS_EPCIS_NAMESPACE }],
    id: `urn:uuid:${ctx.deps.newId()}`,
    type: "EPCISDocument",
    schemaVersion: "2.0",
    creationDate: ctx.nowIso,
    sender: `urn:svc-ams:partner:${ctx.partnerId}`,
    "ams:mappingProfile": {
      profile: "svc-ams-epcis-export/1",
      epcisVersion: "2.0.1",
      cbvVersion: "2.0.0",
      certification: false,
      statement: "A mapping profile of the movement chronology onto EPCIS 2.0.1 and CBV 2.0.0; not a GS1 certification.",
      window: { from: q.from, to: q.to },
      filters,
      eventCount: rows.length,
    },
    epcisBody: { eventList: rows.map((r) => toEpcisEvent(r, uris.get(r.itemId)!)) },
  };
}
