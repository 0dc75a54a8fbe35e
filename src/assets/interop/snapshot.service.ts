// The canonical snapshot, written as a stream: each section is read in keyset
// pages of PAGE rows and serialised as it goes, so a large partner's snapshot never
// sits in memory whole. interop is a named read model (test/contract/layout.test.ts):
// it reads the other domains' tables directly, and only reads them (work-order costs
// come through maintenance's exported reader).
import { toMovementDto } from "../kernel/movements.ts";
import { and, asc, eq, gt, isNotNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { db } from "../../platform/db/transactions.ts";
import { API_VERSION } from "../../platform/openapi/document.ts";
import { items, itemHistory, movements } from "../kernel/kernel.tables.ts";
import { identifiers } from "../identity/identity.tables.ts";
import { locations } from "../locations/locations.tables.ts";
import { checkouts } from "../custody/custody.tables.ts";
import { shipmentContainers, shipmentItems } from "../transit/transit.tables.ts";
import { financeValueEntries } from "../finance/finance.tables.ts";
import { evidence } from "../evidence/evidence.tables.ts";
import { completedWorkOrderCosts } from "../maintenance/maintenance.service.ts";
import pkg from "../../../package.json" with { type: "json" };
import { SNAPSHOT_SCHEMA_VERSION, type CanonicalSnapshot } from "./snapshot.schemas.ts";

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

const correctedByCol = sql<string | null>`(SELECT c.id FROM movements c WHERE c.corrects_id = "movements"."id" LIMIT 1)`;

/** The reversal of a value entry, if recorded by asOf (at most one: finance_entries_reverses_uq). */
const reversedByCol = (asOf: string) =>
  sql<string | null>`(SELECT r.id FROM finance_value_entries r WHERE r.reverses_entry_id = "finance_value_entries"."id" AND r.created_at <= ${asOf})`;

/**
 * Every section of the snapshot as async pages of DTOs, in document order.
 * Records written after `asOf` (movements, history) are left out, so the
 * chronology is the one committed when the snapshot started.
 */
function sections(ctx: TenantCtx, asOf: string) {
  const q = () => db(ctx);
  return {
    async *locations(): AsyncGenerator<Section<"locations">> {
      for await (const rows of pages((after) => q().select().from(locations).where(after).orderBy(asc(locations.id)).limit(PAGE), locations.id)) {
        yield rows.map((r) => ({ id: r.id, parentId: r.parentId, name: r.name, kind: r.kind, code: r.code, status: r.status }));
      }
    },
    async *assets(): AsyncGenerator<Section<"assets">> {
      for await (const rows of pages((after) => q().select().from(items).where(after).orderBy(asc(items.id)).limit(PAGE), items.id)) {
        yield rows.map((r) => ({
          id: r.id,
          name: r.name,
          ownership: r.ownership,
          tracking: r.tracking,
          quantity: r.quantity,
          serialNumber: r.serialNumber,
          condition: r.condition,
          qualityStatus: r.qualityStatus,
          lifecycle: r.lifecycle,
          availability: r.availability,
          locationId: r.locationId,
          containerItemId: r.containerId,
          modelId: r.modelId,
          categoryId: r.categoryId,
          ownerPartyId: r.ownerPartyId,
          agreementId: r.agreementId,
          acquiredOn: r.acquiredOn,
          attributes: r.attributes,
          version: r.version,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          createdBy: r.createdBy,
        }));
      }
    },
    async *identifiers(): AsyncGenerator<Section<"identifiers">> {
      for await (const rows of pages((after) => q().select().from(identifiers).where(after).orderBy(asc(identifiers.id)).limit(PAGE), identifiers.id)) {
        yield rows.map((r) => ({
          id: r.id,
          itemId: r.itemId,
          scheme: r.scheme,
          value: r.value,
          epcUri: r.epcUri,
          digitalLink: r.digitalLink,
          state: r.state,
          version: r.version,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          createdBy: r.createdBy,
        }));
      }
    },
    async *containment(): AsyncGenerator<Section<"containment">> {
      // Items inside another item, and items packed in a shipment container now:
      // one entry per item, both facts side by side.
      const read = (after: SQL | undefined) =>
        q()
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
          .where(and(or(isNotNull(items.containerId), isNotNull(shipmentItems.id)), after))
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
    },
    async *custody(): AsyncGenerator<Section<"custody">> {
      for await (const rows of pages((after) => q().select().from(checkouts).where(after).orderBy(asc(checkouts.id)).limit(PAGE), checkouts.id)) {
        yield rows.map((r) => ({
          id: r.id,
          itemId: r.itemId,
          state: r.state,
          holder: { kind: r.holderKind, id: r.holderId },
          startsAt: r.startsAt,
          endsAt: r.endsAt,
          dueAt: r.dueAt,
          checkedOutAt: r.checkedOutAt,
          acknowledgedAt: r.acknowledgedAt,
          acknowledgedBy: r.acknowledgedBy,
          returnedAt: r.returnedAt,
          returnCondition: r.returnCondition,
          returnLocationId: r.returnLocationId,
          note: r.note,
          version: r.version,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          createdBy: r.createdBy,
        }));
      }
    },
    async *economicEntries(): AsyncGenerator<Section<"economicEntries">> {
      // 1. Acquisition costs the register holds on the item itself.
      const read = (after: SQL | undefined) =>
        q()
          .select({ id: items.id, amount: items.acquisitionCostAmount, currency: items.acquisitionCostCurrency, on: items.acquiredOn })
          .from(items)
          .where(and(isNotNull(items.acquisitionCostAmount), after))
          .orderBy(asc(items.id))
          .limit(PAGE);
      for await (const rows of pages(read, items.id)) {
        yield rows.map((r) => ({ source: "register" as const, itemId: r.id, kind: "acquisition" as const, amount: { amount: r.amount!, currency: r.currency ?? "" }, on: r.on }));
      }
      // 2. Finance value entries recorded by asOf. Finance exports no paged reader, so
      // this read model reads its append-only table (never writes it).
      const readEntries = (after: SQL | undefined) =>
        q()
          .select({ row: financeValueEntries, reversedBy: reversedByCol(asOf) })
          .from(financeValueEntries)
          .where(and(lte(financeValueEntries.createdAt, asOf), after))
          .orderBy(asc(financeValueEntries.id))
          .limit(PAGE)
          .then((rs) => rs.map((r) => ({ ...r, id: r.row.id })));
      for await (const rows of pages(readEntries, financeValueEntries.id)) {
        yield rows.map(({ row: r, reversedBy }) => ({
          source: "finance" as const,
          id: r.id,
          itemId: r.itemId,
          kind: r.kind,
          side: r.side,
          amount: { amount: r.amount, currency: r.currency },
          on: r.valueDate,
          bookId: r.bookId,
          periodId: r.periodId,
          policyId: r.policyId,
          description: r.description,
          workflowCaseId: r.workflowCaseId,
          profileId: r.profileId,
          scheduleMonth: r.scheduleMonth,
          reverses: r.reversesEntryId,
          reversedBy,
          reason: r.reason,
          createdAt: r.createdAt,
          createdBy: r.createdBy,
        }));
      }
      // 3. Costs stated when work orders were completed, through maintenance's own reader.
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
    },
    async *evidence(): AsyncGenerator<Section<"evidence">> {
      // Named columns only: the storage key and envelope are never even read here.
      const read = (after: SQL | undefined) =>
        q()
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
          // A review ends pending in clean or quarantined (evidence.service reviewEvidence).
          review: reviewedBy !== null && reviewedAt !== null ? { decision: r.scanState === "clean" ? ("clean" as const) : ("quarantine" as const), reason: reviewReason, reviewedBy, reviewedAt } : null,
        }));
      }
    },
    async *movements(): AsyncGenerator<Section<"chronology">["movements"]> {
      const read = (after: SQL | undefined) =>
        q()
          .select({ row: movements, correctedBy: correctedByCol })
          .from(movements)
          .where(and(lte(movements.recordedAt, asOf), after))
          .orderBy(asc(movements.recordedAt), asc(movements.id))
          .limit(PAGE)
          .then((rs) => rs.map((r) => ({ ...r, id: r.row.id })));
      for await (const rows of pages(read, movements.id, { col: movements.recordedAt, of: (r) => r.row.recordedAt })) {
        // The same wire shape as GET /movements, so identifiers and movements round-trip.
        yield rows.map(({ row, correctedBy }) => toMovementDto(row, correctedBy));
      }
    },
    async *records(): AsyncGenerator<Section<"chronology">["records"]> {
      const read = (after: SQL | undefined) =>
        q()
          .select()
          .from(itemHistory)
          .where(and(lte(itemHistory.recordedAt, asOf), after))
          .orderBy(asc(itemHistory.recordedAt), asc(itemHistory.id))
          .limit(PAGE);
      for await (const rows of pages(read, itemHistory.id, { col: itemHistory.recordedAt, of: (r) => r.recordedAt })) {
        yield rows.map((r) => ({ id: r.id, itemId: r.itemId, kind: r.kind, actorId: r.actorId, recordedAt: r.recordedAt, reason: r.reason, data: r.data }));
      }
    },
  };
}

/**
 * The snapshot as JSON text chunks, in the order of the published schema. The
 * caller owns the tenant handle for as long as the generator runs.
 */
export async function* snapshotChunks(ctx: TenantCtx, req: SnapshotRequest, counts: SnapshotCounts = { records: 0 }): AsyncGenerator<string> {
  const asOf = ctx.nowIso;
  const s = sections(ctx, asOf);
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
  yield* array("locations", s.locations());
  yield* array("assets", s.assets());
  yield* array("identifiers", s.identifiers());
  yield* array("containment", s.containment());
  yield* array("custody", s.custody());
  yield* array("economicEntries", s.economicEntries());
  yield* array("evidence", s.evidence());
  yield `,"chronology":{`;
  yield* array("movements", s.movements(), "");
  yield* array("records", s.records());
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
