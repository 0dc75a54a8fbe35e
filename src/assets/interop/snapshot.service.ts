// The canonical snapshot, written as a stream: each section is read in keyset
// pages of PAGE rows and serialised as it goes, so a large partner's snapshot never
// sits in memory whole. interop is a named read model (test/contract/layout.test.ts):
// it reads the other domains' tables directly, and only reads them (work-order costs
// come through maintenance's exported reader). Each record is the owning domain's
// DTO (toItemDto, toCheckoutDto, toEntryDto, toMovementDto…) cut to the fields the
// published snapshot schema names, so the snapshot shows records as the API does.
import type { z } from "@hono/zod-openapi";
import { and, asc, eq, gt, isNotNull, lte, or, sql, type SQL } from "drizzle-orm";
import { visibleRows } from "../../platform/db/pending.ts";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { db } from "../../platform/db/transactions.ts";
import { API_VERSION } from "../../platform/openapi/document.ts";
import { items, itemHistory, movements } from "../kernel/kernel.tables.ts";
import { toItemDto } from "../kernel/index.ts";
import { toMovementDto } from "../kernel/index.ts";
import { identifiers } from "../identity/identity.tables.ts";
import { toIdentifierDto } from "../identity/index.ts";
import { locations } from "../locations/locations.tables.ts";
import { toLocationDto } from "../locations/index.ts";
import { checkouts } from "../custody/custody.tables.ts";
import { toCheckoutDto } from "../custody/index.ts";
import { shipmentContainers, shipmentItems } from "../transit/transit.tables.ts";
import { financeValueEntries } from "../finance/value-entries/entries.tables.ts";
import { toEntryDto } from "../finance/index.ts";
import { evidence } from "../evidence/evidence.tables.ts";
import { completedWorkOrderCosts } from "../maintenance/index.ts";
import pkg from "../../../package.json" with { type: "json" };
import {
  SNAPSHOT_SCHEMA_VERSION,
  SnapshotAsset,
  SnapshotCustody,
  SnapshotIdentifier,
  SnapshotLocation,
  type CanonicalSnapshot,
  type SnapshotFinanceEntry,
} from "./snapshot.schemas.ts";

const PAGE = 500;

type Section<K extends keyof CanonicalSnapshot> = CanonicalSnapshot[K];

export interface SnapshotRequest {
  /** The member who asked (the requester of a background job). */
  generatedBy: string;
  jobId: string | null;
}

export interface SnapshotCounts {
  records: number;
}

/** The service release and API version every export names. */
export const SERVICE_INFO = { name: pkg.name, version: pkg.version, apiVersion: API_VERSION } as const;

/**
 * Reads one table in pages ordered by (ts, id) — or by id alone when ts is absent —
 * so each row is read once however long the stream takes.
 */
async function* pages<R extends { id: string }>(
  read: (after: SQL | undefined) => Promise<R[]>,
  idCol: SQLiteColumn,
  tsCol?: { col: SQLiteColumn; of: (r: R) => string },
): AsyncGenerator<R[]> {
  let after: SQL | undefined;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = tsCol
      ? or(gt(tsCol.col, tsCol.of(last)), and(eq(tsCol.col, tsCol.of(last)), gt(idCol, last.id)))
      : gt(idCol, last.id);
  }
}

/**
 * The fields of a domain DTO that `schema` publishes, in its order (its objects are
 * strict: a field it does not name must not be written). The DTO must carry every
 * one of them with a type the schema accepts.
 */
function fieldsOf<S extends z.ZodObject>(schema: S) {
  const keys = Object.keys(schema.shape) as Array<keyof z.output<S> & string>;
  return <T extends z.output<S>>(dto: T): z.output<S> => {
    const out: Partial<z.output<S>> = {};
    for (const k of keys) out[k] = dto[k];
    return out as z.output<S>;
  };
}

const asSnapshotLocation = fieldsOf(SnapshotLocation);
const asSnapshotAsset = fieldsOf(SnapshotAsset);
const asSnapshotIdentifier = fieldsOf(SnapshotIdentifier);
const asSnapshotCustody = fieldsOf(SnapshotCustody);

/** A finance value entry as GET-style DTO (toEntryDto), told as the snapshot's money fact. */
function asSnapshotFinanceEntry(e: ReturnType<typeof toEntryDto>, reversedBy: string | null): z.output<typeof SnapshotFinanceEntry> {
  const [side, amount] = e.debit ? (["debit", e.debit] as const) : (["credit", e.credit!] as const);
  return {
    source: "finance",
    id: e.id,
    itemId: e.itemId,
    kind: e.kind,
    side,
    amount,
    on: e.valueDate,
    bookId: e.bookId,
    periodId: e.periodId,
    policyId: e.policyId,
    description: e.description,
    workflowCaseId: e.workflowCaseId,
    profileId: e.profileId,
    scheduleMonth: e.scheduleMonth,
    reverses: e.reversesEntryId,
    reversedBy,
    reason: e.reason,
    createdAt: e.createdAt,
    createdBy: e.createdBy,
  };
}

// ---------------------------------------------------------------- the sections, in document order

async function* locationSection(ctx: TenantCtx): AsyncGenerator<Section<"locations">> {
  for await (const rows of pages((after) => db(ctx).select().from(locations).where(and(after, visibleRows(locations))).orderBy(asc(locations.id)).limit(PAGE), locations.id)) {
    yield rows.map((r) => asSnapshotLocation(toLocationDto(r)));
  }
}

async function* assetSection(ctx: TenantCtx): AsyncGenerator<Section<"assets">> {
  for await (const rows of pages((after) => db(ctx).select().from(items).where(and(after, visibleRows(items))).orderBy(asc(items.id)).limit(PAGE), items.id)) {
    yield rows.map((r) => asSnapshotAsset({ ...toItemDto(r), containerItemId: r.containerId }));
  }
}

async function* identifierSection(ctx: TenantCtx): AsyncGenerator<Section<"identifiers">> {
  for await (const rows of pages((after) => db(ctx).select().from(identifiers).where(after).orderBy(asc(identifiers.id)).limit(PAGE), identifiers.id)) {
    yield rows.map((r) => asSnapshotIdentifier(toIdentifierDto(r)));
  }
}

/** Items inside another item, and items packed in a shipment container now: one entry per item, both facts side by side. */
async function* containmentSection(ctx: TenantCtx): AsyncGenerator<Section<"containment">> {
  const read = (after: SQL | undefined) =>
    db(ctx)
      .select({
        id: items.id,
        containerItemId: items.containerId,
        transitId: shipmentContainers.id,
        shipmentId: shipmentContainers.shipmentId,
        transitKind: shipmentContainers.kind,
        transitCode: shipmentContainers.code,
        packedAt: shipmentItems.packedAt,
      })
      .from(items)
      .leftJoin(shipmentItems, and(eq(shipmentItems.itemId, items.id), eq(shipmentItems.state, "packed")))
      .leftJoin(shipmentContainers, eq(shipmentContainers.id, shipmentItems.containerId))
      .where(and(or(isNotNull(items.containerId), isNotNull(shipmentItems.id)), after, visibleRows(items)))
      .orderBy(asc(items.id))
      .limit(PAGE);
  for await (const rows of pages(read, items.id)) {
    yield rows.map((r) => ({
      itemId: r.id,
      containerItemId: r.containerItemId,
      transitContainer:
        r.transitId && r.shipmentId && r.transitKind && r.packedAt
          ? { id: r.transitId, shipmentId: r.shipmentId, kind: r.transitKind, code: r.transitCode, packedAt: r.packedAt }
          : null,
    }));
  }
}

async function* custodySection(ctx: TenantCtx, asOf: string): AsyncGenerator<Section<"custody">> {
  for await (const rows of pages((after) => db(ctx).select().from(checkouts).where(after).orderBy(asc(checkouts.id)).limit(PAGE), checkouts.id)) {
    // `overdue` is the response time's view, not a fact of the record: the snapshot leaves it out.
    yield rows.map((r) => asSnapshotCustody(toCheckoutDto(r, asOf)));
  }
}

/** Acquisition costs the register holds on the item itself. */
async function* registerCosts(ctx: TenantCtx): AsyncGenerator<Section<"economicEntries">> {
  const read = (after: SQL | undefined) =>
    db(ctx)
      .select({ id: items.id, amount: items.acquisitionCostAmount, currency: items.acquisitionCostCurrency, on: items.acquiredOn })
      .from(items)
      .where(and(isNotNull(items.acquisitionCostAmount), after, visibleRows(items)))
      .orderBy(asc(items.id))
      .limit(PAGE);
  for await (const rows of pages(read, items.id)) {
    yield rows.map((r) => ({ source: "register" as const, itemId: r.id, kind: "acquisition" as const, amount: { amount: r.amount!, currency: r.currency ?? "" }, on: r.on }));
  }
}

/** The reversal of a value entry, if recorded by asOf (at most one: finance_entries_reverses_uq). */
const reversedByCol = (asOf: string) =>
  sql<string | null>`(SELECT r.id FROM finance_value_entries r WHERE r.reverses_entry_id = "finance_value_entries"."id" AND r.created_at <= ${asOf})`;

/** Finance value entries recorded by asOf. Finance exports no paged reader, so this read model reads its append-only table (never writes it). */
async function* financeEntries(ctx: TenantCtx, asOf: string): AsyncGenerator<Section<"economicEntries">> {
  const read = (after: SQL | undefined) =>
    db(ctx)
      .select({ row: financeValueEntries, reversedBy: reversedByCol(asOf) })
      .from(financeValueEntries)
      .where(and(lte(financeValueEntries.createdAt, asOf), after))
      .orderBy(asc(financeValueEntries.id))
      .limit(PAGE)
      .then((rs) => rs.map((r) => ({ ...r, id: r.row.id })));
  for await (const rows of pages(read, financeValueEntries.id)) {
    yield rows.map(({ row, reversedBy }) => asSnapshotFinanceEntry(toEntryDto(row), reversedBy));
  }
}

/** Costs stated when work orders were completed, through maintenance's own reader. */
async function* workOrderCosts(ctx: TenantCtx, asOf: string): AsyncGenerator<Section<"economicEntries">> {
  for (let afterId: string | null = null; ; ) {
    const rows = await completedWorkOrderCosts(ctx, { asOf, afterId, limit: PAGE });
    if (rows.length > 0) {
      yield rows.map((r) => ({
        source: "work_order" as const,
        id: r.id,
        itemId: r.itemId,
        kind: "work_order_cost" as const,
        workOrderKind: r.kind,
        title: r.title,
        amount: r.cost,
        on: r.completedAt.slice(0, 10),
        completedAt: r.completedAt,
      }));
    }
    if (rows.length < PAGE) break;
    afterId = rows[rows.length - 1]!.id;
  }
}

/** Money facts: the register's acquisition costs, then finance value entries, then work orders' costs. */
async function* economicEntrySection(ctx: TenantCtx, asOf: string): AsyncGenerator<Section<"economicEntries">> {
  yield* registerCosts(ctx);
  yield* financeEntries(ctx, asOf);
  yield* workOrderCosts(ctx, asOf);
}

async function* evidenceSection(ctx: TenantCtx): AsyncGenerator<Section<"evidence">> {
  // Named columns only: the storage key and envelope are never even read here.
  const read = (after: SQL | undefined) =>
    db(ctx)
      .select({
        id: evidence.id,
        targetType: evidence.targetType,
        targetId: evidence.targetId,
        classification: evidence.classification,
        fileName: evidence.fileName,
        size: evidence.size,
        mediaType: evidence.declaredType,
        sha256: evidence.sha256,
        scanState: evidence.scanState,
        reviewedBy: evidence.reviewedBy,
        reviewedAt: evidence.reviewedAt,
        reviewReason: evidence.reviewReason,
        createdBy: evidence.createdBy,
        createdAt: evidence.createdAt,
      })
      .from(evidence)
      .where(after)
      .orderBy(asc(evidence.id))
      .limit(PAGE);
  for await (const rows of pages(read, evidence.id)) {
    yield rows.map(({ reviewedBy, reviewedAt, reviewReason, ...r }) => ({
      ...r,
      // A review ends pending in clean or quarantined (platform/stored-files reviewStoredFile).
      review: reviewedBy !== null && reviewedAt !== null ? { decision: r.scanState === "clean" ? ("clean" as const) : ("quarantine" as const), reason: reviewReason, reviewedBy, reviewedAt } : null,
    }));
  }
}

const correctedByCol = sql<string | null>`(SELECT c.id FROM movements c WHERE c.corrects_id = "movements"."id" LIMIT 1)`;

/** Movements recorded by asOf, so the chronology is the one committed when the snapshot started. */
async function* movementSection(ctx: TenantCtx, asOf: string): AsyncGenerator<Section<"chronology">["movements"]> {
  const read = (after: SQL | undefined) =>
    db(ctx)
      .select({ row: movements, correctedBy: correctedByCol })
      .from(movements)
      .where(and(lte(movements.recordedAt, asOf), after, visibleRows(movements)))
      .orderBy(asc(movements.recordedAt), asc(movements.id))
      .limit(PAGE)
      .then((rs) => rs.map((r) => ({ ...r, id: r.row.id })));
  for await (const rows of pages(read, movements.id, { col: movements.recordedAt, of: (r) => r.row.recordedAt })) {
    // The same wire shape as GET /movements, so identifiers and movements round-trip.
    yield rows.map(({ row, correctedBy }) => toMovementDto(row, correctedBy));
  }
}

/** The items' own record history recorded by asOf. */
async function* recordSection(ctx: TenantCtx, asOf: string): AsyncGenerator<Section<"chronology">["records"]> {
  const read = (after: SQL | undefined) =>
    db(ctx)
      .select()
      .from(itemHistory)
      .where(and(lte(itemHistory.recordedAt, asOf), after, visibleRows(itemHistory)))
      .orderBy(asc(itemHistory.recordedAt), asc(itemHistory.id))
      .limit(PAGE);
  for await (const rows of pages(read, itemHistory.id, { col: itemHistory.recordedAt, of: (r) => r.recordedAt })) {
    yield rows.map((r) => ({ id: r.id, itemId: r.itemId, kind: r.kind, actorId: r.actorId, recordedAt: r.recordedAt, reason: r.reason, data: r.data }));
  }
}

/**
 * The snapshot as JSON text chunks, in the order of the published schema. The
 * caller owns the tenant handle for as long as the generator runs.
 */
export async function* snapshotChunks(ctx: TenantCtx, req: SnapshotRequest, counts: SnapshotCounts = { records: 0 }): AsyncGenerator<string> {
  const asOf = ctx.nowIso;
  const provenance: CanonicalSnapshot["provenance"] = {
    generatedAt: asOf,
    generatedBy: req.generatedBy,
    producedBy: ctx.actorId,
    service: { ...SERVICE_INFO },
    jobId: req.jobId,
  };
  yield `{"schemaVersion":${JSON.stringify(SNAPSHOT_SCHEMA_VERSION)},"partnerId":${JSON.stringify(ctx.partnerId)},"provenance":${JSON.stringify(provenance)}`;
  async function* array(name: string, source: AsyncGenerator<unknown[]>, lead = ","): AsyncGenerator<string> {
    yield `${lead}${JSON.stringify(name)}:[`;
    let first = true;
    for await (const page of source) {
      let out = "";
      for (const rec of page) {
        out += (first ? "" : ",") + JSON.stringify(rec);
        first = false;
        counts.records++;
      }
      yield out;
    }
    yield "]";
  }
  yield* array("locations", locationSection(ctx));
  yield* array("assets", assetSection(ctx));
  yield* array("identifiers", identifierSection(ctx));
  yield* array("containment", containmentSection(ctx));
  yield* array("custody", custodySection(ctx, asOf));
  yield* array("economicEntries", economicEntrySection(ctx, asOf));
  yield* array("evidence", evidenceSection(ctx));
  yield `,"chronology":{`;
  yield* array("movements", movementSection(ctx, asOf), "");
  yield* array("records", recordSection(ctx, asOf));
  yield "}}";
}

/** The chunks as a byte stream (pull-based: one page is read per pull). */
export function snapshotStream(ctx: TenantCtx, req: SnapshotRequest, onDone: () => void, counts?: SnapshotCounts): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = snapshotChunks(ctx, req, counts);
  let closed = false;
  const finish = () => {
    if (!closed) {
      closed = true;
      onDone();
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const step = await it.next();
        if (step.done) {
          controller.close();
          finish();
        } else controller.enqueue(enc.encode(step.value));
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    async cancel() {
      finish();
      await it.return(undefined);
    },
  });
}
