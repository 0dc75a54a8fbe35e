// Protected evidence: stored files (platform/stored-files) bound to a target, with
// evidence's own visibility (restricted needs ams_admin), targets, listing and
// history (evidence_events). The bytes only ever reach the content store as
// AES-256-GCM ciphertext; the envelope needed to read them stays in this partner's database.
import type { z } from "@hono/zod-openapi";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { RequestCtx } from "../../platform/http/context.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { Staged } from "../../platform/http/define-route.ts";
import { AppError, invalid } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { insertRow } from "../../platform/db/prepared.ts";
import { appendEvent } from "../../platform/db/history.ts";
import { appendEvent as appendOutboxEvent } from "../../platform/outbox/outbox.ts";
import { FilterSet, paginate, tableOrder, type Page } from "../../platform/paging/paging.ts";
import { stageEncryptedUpload, type StagedUpload } from "../../platform/stored-files/upload.ts";
import { newScannedFile, openCleanFile, reviewStoredFile, scannedFileDto, type StoredFileKind } from "../../platform/stored-files/stored-files.ts";
import { scanPendingFiles } from "../../platform/stored-files/scan.ts";
import { findItem } from "../kernel/index.ts";
import { getCheckout } from "../custody/index.ts";
import { getShipment } from "../transit/index.ts";
import { getWorkOrder } from "../maintenance/index.ts";
import { workflowCaseExists } from "../workflow/index.ts";
import { auditResultExists } from "../audits/index.ts";
import { valueEntryExists } from "../finance/index.ts";
import { evidence, evidenceEvents } from "./evidence.tables.ts";
import { scanMoveRefused, type TargetType } from "./evidence.states.ts";
import { UploadFields, type ListEvidenceQuery, type ReviewEvidence } from "./evidence.schemas.ts";

type EvidenceRow = typeof evidence.$inferSelect;
export type EvidenceDto = ReturnType<typeof toEvidenceDto>;

/**
 * Whether the caller may review the file now: it is pending, they did not upload it,
 * hold ams_review and, for restricted evidence, ams_admin. (Clearing it also waits for
 * the automatic scan; quarantining does not.)
 */
function mayReview(ctx: RequestCtx, r: EvidenceRow): boolean {
  return (
    r.scanState === "pending" &&
    r.createdBy !== ctx.actorId &&
    ctx.capabilities.has("ams_review") &&
    (r.classification !== "restricted" || canSeeRestricted(ctx))
  );
}

/** The record as the caller sees it (`canDecide` is theirs). */
export function toEvidenceDto(ctx: RequestCtx, r: EvidenceRow) {
  return { id: r.id, targetType: r.targetType, targetId: r.targetId, ...scannedFileDto(r), canDecide: mayReview(ctx, r) };
}

/** Evidence as stored files: scanned by the `scans` job, cleared only after it. */
const EVIDENCE_FILES: StoredFileKind<typeof evidence> = {
  purpose: "evidence",
  table: evidence,
  lockedDetail: (state) => `evidence is ${state}${state === "pending" ? " (not yet scanned and reviewed)" : ""}; only clean evidence can be read`,
  notReviewable: scanMoveRefused,
  notScannedDetail: "evidence is pending and the automatic scan has not run yet; it can be cleared once scanned",
};

const canSeeRestricted = (ctx: RequestCtx) => ctx.capabilities.has("ams_admin");

/** The record if the caller may see it; restricted evidence is 404 without ams_admin (contract §3). */
async function loadVisible(ctx: RequestCtx, id: string): Promise<EvidenceRow> {
  const row = (await db(ctx).select().from(evidence).where(eq(evidence.id, id)))[0];
  if (!row || (row.classification === "restricted" && !canSeeRestricted(ctx))) throw new AppError("not_found", "evidence not found");
  return row;
}

/** For the reviewer picker (eligible users): the uploader of a file the caller may see, else 404. */
export async function evidenceUploader(ctx: RequestCtx, id: string): Promise<string[]> {
  return [(await loadVisible(ctx, id)).createdBy];
}

// ---------------------------------------------------------------- upload

/** An upload whose ciphertext is in the store and whose record is not written yet. */
export type StagedEvidence = StagedUpload<z.output<typeof UploadFields>>;

/**
 * POST /evidence, first half (outside the write transaction): reads the multipart
 * body as it streams, encrypting the file part with a fresh data key straight into
 * the content store while its SHA-256 and size are counted, and checks the fields.
 */
export async function stageEvidenceUpload(ctx: RequestCtx, request: Request): Promise<Staged<StagedEvidence>> {
  return stageEncryptedUpload(ctx, request, {
    purpose: "evidence",
    fields: UploadFields,
    maxBytes: ctx.deps.config.evidenceMaxBytes,
    // As soon as the classification is read: before the file streams when the form sends it first.
    authorize: (fields) => assertMayUpload(ctx, fields.classification),
  });
}

/** Restricted evidence needs ams_admin to upload as well as to read (spec: "restricted evidence additionally needs the AMS administrator capability"). */
function assertMayUpload(ctx: RequestCtx, classification: string | undefined): void {
  if (classification === "restricted" && !canSeeRestricted(ctx)) {
    throw new AppError("capability_denied", "capability ams_admin required to upload restricted evidence");
  }
}

async function exists(load: () => Promise<unknown>): Promise<boolean> {
  try {
    await load();
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return false;
    throw err;
  }
}

/** Whether the target exists, asked of the domain that owns it. */
async function targetExists(ctx: RequestCtx, type: TargetType, id: string): Promise<boolean> {
  switch (type) {
    case "item":
      return (await findItem(ctx, id)) !== undefined;
    case "checkout":
      return exists(() => getCheckout(ctx, id));
    case "shipment":
      return exists(() => getShipment(ctx, id));
    case "audit_result":
      return auditResultExists(ctx, id);
    case "work_order":
      return exists(() => getWorkOrder(ctx, id));
    case "workflow_case":
      return workflowCaseExists(ctx, id);
    case "value_entry":
      return valueEntryExists(ctx, id);
  }
}

/** POST /evidence, second half (in the request's transaction): the target check and the record, `pending`. */
export async function createEvidence(ctx: RequestCtx, staged: StagedEvidence): Promise<EvidenceDto> {
  return withTx(ctx, async (ctx) => {
    const { targetType, targetId, classification } = staged.fields;
    assertMayUpload(ctx, classification);
    if (!(await targetExists(ctx, targetType, targetId))) throw invalid("/body/targetId", `unknown ${targetType.replaceAll("_", " ")}`);
    const row: EvidenceRow = { ...newScannedFile(ctx, staged, classification), targetType, targetId };
    await insertRow(writer(ctx), evidence, row);
    await appendEvent(ctx, evidenceEvents, row.id, "upload", null, { size: row.size, sha256: row.sha256, mediaType: row.declaredType, classification });
    await evidenceChanged(ctx, row, row.scanState);
    return toEvidenceDto(ctx, row);
  });
}

// ---------------------------------------------------------------- reads

export async function listEvidence(ctx: RequestCtx, q: z.output<typeof ListEvidenceQuery>): Promise<Page<EvidenceDto>> {
  const filters = new FilterSet()
    .add("targetType", q.targetType, (v) => inArray(evidence.targetType, v))
    .add("targetId", q.targetId, (v) => eq(evidence.targetId, v))
    .add("scanState", q.scanState, (v) => inArray(evidence.scanState, v))
    .add("classification", q.classification, (v) => inArray(evidence.classification, v));
  // Without ams_admin restricted evidence does not exist for the caller.
  const scope = canSeeRestricted(ctx) ? undefined : inArray(evidence.classification, ["internal", "private"]);
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...tableOrder(evidence, "createdAt"),
      where: filters.where(scope),
    },
    (r) => toEvidenceDto(ctx, r),
  );
}

/**
 * GET /evidence/{id}/content: the decrypted bytes of a clean file (423 evidence_locked
 * otherwise); the download is recorded before the first byte leaves. GCM verifies at
 * the end: a tampered blob ends the stream with an error instead of completing it.
 */
export async function openEvidenceContent(ctx: RequestCtx, id: string): Promise<{ evidence: EvidenceDto; content: ReadableStream<Uint8Array> }> {
  const { row, content } = await openCleanFile(
    ctx,
    EVIDENCE_FILES,
    (ctx) => loadVisible(ctx, id),
    (ctx, r) => appendEvent(ctx, evidenceEvents, r.id, "download", null, { size: r.size }),
  );
  return { evidence: toEvidenceDto(ctx, row), content };
}

// ---------------------------------------------------------------- review

/**
 * POST /evidence/{id}/review: a reviewer other than the uploader clears a pending
 * file (only after the automatic scan has run) or quarantines it.
 */
export async function reviewEvidence(ctx: RequestCtx, id: string, input: z.output<typeof ReviewEvidence>): Promise<EvidenceDto> {
  return withTx(ctx, async (ctx) => {
    const { row, from, to } = await reviewStoredFile(ctx, EVIDENCE_FILES, await loadVisible(ctx, id), input);
    await appendEvent(ctx, evidenceEvents, id, "review", null, { decision: input.decision, from, to, ...(input.reason ? { reason: input.reason } : {}) });
    await evidenceChanged(ctx, row, to);
    return toEvidenceDto(ctx, row);
  });
}

// ---------------------------------------------------------------- scan

/** The scan job's probe (reads only): now when a file waits for its scan (evidence_scan_queue_idx), else null (only an upload adds one). */
export async function evidenceScanDueAt(ctx: TenantCtx): Promise<string | null> {
  const waiting = await db(ctx).select({ id: evidence.id }).from(evidence).where(and(eq(evidence.scanState, "pending"), isNull(evidence.scannedAt))).limit(1);
  return waiting.length > 0 ? ctx.nowIso : null;
}

/** One batch of the scan queue (pending files not yet scanned), oldest first; returns how many were scanned. */
export async function scanPendingEvidence(ctx: TenantCtx, limit = 20): Promise<number> {
  return scanPendingFiles(ctx, EVIDENCE_FILES, limit, async (ctx, row, outcome) => {
    await appendEvent(ctx, evidenceEvents, row.id, "scan", null, { outcome: outcome.scanState, ...(outcome.finding ? { finding: outcome.finding } : {}), clamd: ctx.deps.config.clamd !== undefined });
    const stored = (await writer(ctx).select().from(evidence).where(eq(evidence.id, row.id)))[0];
    if (stored) await evidenceChanged(ctx, stored, outcome.scanState);
  });
}

/**
 * The live streams' `evidence.changed` event (uploaded, scanned, reviewed), in the change's
 * transaction. It carries the classification: restricted evidence's events reach only ams_admin.
 */
async function evidenceChanged(ctx: TenantCtx, row: Pick<EvidenceRow, "id" | "classification" | "targetType" | "targetId">, scanState: string): Promise<void> {
  await appendOutboxEvent(ctx, {
    kind: "evidence.changed",
    aggregateId: row.id,
    occurredAt: ctx.nowIso,
    data: { evidenceId: row.id, classification: row.classification, scanState, targetType: row.targetType, targetId: row.targetId },
  });
}
