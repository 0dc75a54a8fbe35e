// Protected evidence: encrypted upload, listing, locked download, review and the
// automatic scan. The bytes only ever reach the content store as AES-256-GCM
// ciphertext; the envelope needed to read them stays in this partner's database.
import type { z } from "@hono/zod-openapi";
import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import type { RequestCtx } from "../../platform/http/context.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { Staged } from "../../platform/http/define-route.ts";
import { AppError, invalid } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { insertRow } from "../../platform/db/prepared.ts";
import { FilterSet, paginate, type Page } from "../../platform/paging/paging.ts";
import { decryptStream } from "../../platform/crypto/envelope.ts";
import { blobAad, openEncryptedBlob, stageEncryptedUpload, type StagedUpload, storedFileColumns } from "../../platform/blobs/encrypted-upload.ts";
import { ContentStoreError } from "../../platform/blobs/content-store.ts";
import { findItem } from "../kernel/items.ts";
import { getCheckout } from "../custody/custody.service.ts";
import { getShipment } from "../transit/shipments.service.ts";
import { getWorkOrder } from "../maintenance/maintenance.service.ts";
import { workflowCaseExists } from "../workflow/workflow.service.ts";
import { auditResultExists } from "../audits/audits.service.ts";
import { valueEntryExists } from "../finance/entries.service.ts";
import { evidence, evidenceEvents } from "./evidence.tables.ts";
import { assertScanMove, type TargetType } from "./evidence.states.ts";
import { UploadFields, type ListEvidenceQuery, type ReviewEvidence } from "./evidence.schemas.ts";
import { SNIFF_BYTES, sniffType, typeMismatch } from "../../platform/blobs/sniff.ts";
import { scanWithClamd, ScannerError, type ClamdVerdict } from "./evidence.clamd.ts";

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
  return {
    id: r.id,
    targetType: r.targetType,
    targetId: r.targetId,
    classification: r.classification,
    fileName: r.fileName,
    size: r.size,
    mediaType: r.declaredType,
    sniffedType: r.sniffedType,
    sha256: r.sha256,
    scanState: r.scanState,
    scanned: r.scannedAt !== null,
    scanFinding: r.scanFinding,
    reviewedBy: r.reviewedBy,
    reviewedAt: r.reviewedAt,
    reviewReason: r.reviewReason,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    canDecide: mayReview(ctx, r),
  };
}

/** Associated data binding a blob to its record (`evidence:<partnerId>:<id>`). */
const aadOf = (partnerId: string, id: string) => blobAad("evidence", partnerId, id);

const canSeeRestricted = (ctx: RequestCtx) => ctx.capabilities.has("ams_admin");

async function recordEvent(ctx: TenantCtx, evidenceId: string, kind: (typeof evidenceEvents.$inferInsert)["kind"], data: Record<string, unknown> = {}) {
  await insertRow(writer(ctx), evidenceEvents, { id: ctx.deps.newId(), evidenceId, kind, actorId: ctx.actorId, recordedAt: ctx.nowIso, data });
}

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
    const row: EvidenceRow = {
      ...storedFileColumns(staged),
      targetType,
      targetId,
      classification,
      scanState: "pending",
      scannedAt: null,
      scanFinding: null,
      reviewedBy: null,
      reviewedAt: null,
      reviewReason: null,
      createdAt: ctx.nowIso,
      updatedAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await insertRow(writer(ctx), evidence, row);
    await recordEvent(ctx, row.id, "upload", { size: row.size, sha256: row.sha256, mediaType: row.declaredType, classification });
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
      route: "GET /evidence",
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      orderTs: evidence.createdAt,
      orderId: evidence.id,
      page: (qr, where, orderBy, limit) => qr.select().from(evidence).where(where).orderBy(...orderBy).limit(limit),
      count: (qr, where) => qr.select({ n: count() }).from(evidence).where(where),
      where: filters.where(scope),
      position: (r) => ({ t: r.createdAt, i: r.id }),
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
  const row = await withTx(ctx, async (ctx) => {
    const r = await loadVisible(ctx, id);
    if (r.scanState !== "clean") {
      throw new AppError("evidence_locked", `evidence is ${r.scanState}${r.scanState === "pending" ? " (not yet scanned and reviewed)" : ""}; only clean evidence can be read`);
    }
    await recordEvent(ctx, r.id, "download", { size: r.size });
    return r;
  });
  const content = await openEncryptedBlob(ctx, { purpose: "evidence", id: row.id, storageKey: row.storageKey, envelope: row.envelope });
  return { evidence: toEvidenceDto(ctx, row), content };
}

// ---------------------------------------------------------------- review

/**
 * POST /evidence/{id}/review: a reviewer other than the uploader clears a pending
 * file (only after the automatic scan has run) or quarantines it.
 */
export async function reviewEvidence(ctx: RequestCtx, id: string, input: z.output<typeof ReviewEvidence>): Promise<EvidenceDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadVisible(ctx, id);
    if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "you uploaded this file; another reviewer must decide it");
    const to = input.decision === "clean" ? ("clean" as const) : ("quarantined" as const);
    assertScanMove(row.scanState, to);
    if (to === "clean" && row.scannedAt === null) {
      throw new AppError("state_conflict", "evidence is pending and the automatic scan has not run yet; it can be cleared once scanned");
    }
    const change = { scanState: to, reviewedBy: ctx.actorId, reviewedAt: ctx.nowIso, reviewReason: input.reason || null, updatedAt: ctx.nowIso };
    await writer(ctx).update(evidence).set(change).where(eq(evidence.id, id));
    await recordEvent(ctx, id, "review", { decision: input.decision, from: row.scanState, to, ...(input.reason ? { reason: input.reason } : {}) });
    return toEvidenceDto(ctx, { ...row, ...change });
  });
}

// ---------------------------------------------------------------- scan

export interface ScanOutcome {
  scanState: "pending" | "quarantined" | "failed";
  sniffedType?: string;
  finding?: string;
}

/**
 * Scans one file: decrypts it from the store (which also verifies its GCM tag),
 * sniffs its leading bytes against the declared type and, when clamd is configured,
 * streams the plaintext to it. A finding quarantines, a scanner error fails, and a
 * file with neither stays pending for a reviewer. A store outage throws (retried later).
 */
async function scanOne(ctx: TenantCtx, row: EvidenceRow): Promise<ScanOutcome> {
  const blob = await ctx.deps.contentStore.get(row.storageKey);
  if (!blob) return { scanState: "failed", finding: "the stored content is missing" };
  let plaintext: ReadableStream<Uint8Array>;
  try {
    plaintext = decryptStream(ctx.deps.config.dataKek, row.envelope, blob, { aad: aadOf(ctx.partnerId, row.id) });
  } catch (err) {
    void blob.cancel().catch(() => undefined);
    return { scanState: "failed", finding: `the stored content cannot be decrypted (${(err as Error).name})` };
  }
  const head: Buffer[] = [];
  let headBytes = 0;
  async function* tapped() {
    for await (const chunk of plaintext) {
      if (headBytes < SNIFF_BYTES) {
        head.push(Buffer.from(chunk.subarray(0, SNIFF_BYTES - headBytes)));
        headBytes += Math.min(chunk.byteLength, SNIFF_BYTES - headBytes);
      }
      yield chunk;
    }
  }
  const clamd = ctx.deps.config.clamd;
  let verdict: ClamdVerdict = { clean: true };
  let scannerError: string | undefined;
  try {
    if (clamd) verdict = await scanWithClamd(clamd, tapped());
    else for await (const _ of tapped()) void _;
  } catch (err) {
    if (err instanceof ContentStoreError) throw err;
    scannerError = err instanceof ScannerError ? err.message : `the stored content failed its integrity check (${(err as Error).name})`;
  }
  const sniffedType = sniffType(Buffer.concat(head));
  const findings = [typeMismatch(row.declaredType, sniffedType), verdict.clean ? undefined : `malware signature ${verdict.signature}`].filter(Boolean);
  if (findings.length > 0 && headBytes >= Math.min(row.size, SNIFF_BYTES)) return { scanState: "quarantined", sniffedType, finding: findings.join("; ") };
  if (scannerError) return { scanState: "failed", sniffedType, finding: scannerError };
  return { scanState: "pending", sniffedType };
}

/** One batch of the scan queue (pending files not yet scanned), oldest first; returns how many were scanned. */
export async function scanPendingEvidence(ctx: TenantCtx, limit = 20): Promise<number> {
  const queue = await db(ctx)
    .select()
    .from(evidence)
    .where(and(eq(evidence.scanState, "pending"), isNull(evidence.scannedAt)))
    .orderBy(asc(evidence.createdAt), asc(evidence.id))
    .limit(limit);
  let scanned = 0;
  for (const row of queue) {
    let outcome: ScanOutcome;
    try {
      outcome = await scanOne(ctx, row);
    } catch (err) {
      // The store is unreachable: not the file's fault; it stays queued for the next run.
      ctx.deps.log.warn("evidence scan deferred", { requestId: ctx.requestId, evidenceId: row.id, error: (err as Error).name });
      continue;
    }
    await withTx(ctx, async (ctx) => {
      const current = (await writer(ctx).select().from(evidence).where(eq(evidence.id, row.id)))[0];
      if (!current) return;
      // A reviewer may have quarantined it meanwhile: the scan is recorded, the decision kept.
      const next = current.scanState === "pending" ? outcome.scanState : current.scanState;
      if (next !== current.scanState) assertScanMove(current.scanState, next);
      await writer(ctx)
        .update(evidence)
        .set({
          scanState: next,
          scannedAt: ctx.nowIso,
          ...(outcome.sniffedType ? { sniffedType: outcome.sniffedType } : {}),
          ...(outcome.finding && next === outcome.scanState ? { scanFinding: outcome.finding } : {}),
          updatedAt: ctx.nowIso,
        })
        .where(eq(evidence.id, row.id));
      await recordEvent(ctx, row.id, "scan", { outcome: outcome.scanState, ...(outcome.finding ? { finding: outcome.finding } : {}), clamd: ctx.deps.config.clamd !== undefined });
    });
    scanned++;
  }
  return scanned;
}
