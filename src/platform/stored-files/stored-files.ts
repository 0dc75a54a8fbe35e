// A stored file is one feature, used by evidence (assets) and artifacts (planning):
// an encrypted upload (upload.ts) recorded with its facts and scan state, locked
// (423) until clean, decided by a reviewer other than the uploader, read back by
// decrypting as it streams. Each domain keeps its own table (columns.ts), what the
// file is bound to, who may see it, its capabilities, routes and history; the
// mechanics are here once.
import { eq } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Querier } from "../db/database.ts";
import { withTx, writer, type TxCtx } from "../db/transactions.ts";
import { AppError } from "../errors/app-error.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import type { ScannedFileRow, StoredFileRow } from "./columns.ts";
import { mayMoveScanState, type Classification, type ScanState } from "./states.ts";
import { openEncryptedBlob, type BlobPurpose, type StagedUpload } from "./upload.ts";

/** A domain table with the stored-file columns. */
export type FileTable = SQLiteTable & { id: SQLiteColumn; scanState: SQLiteColumn };

/** What a domain tells the module about its files. */
export interface StoredFileKind<T extends FileTable = FileTable> {
  /** Names the store key prefix and the GCM associated data. */
  purpose: BlobPurpose;
  table: T;
  /** The 423 `evidence_locked` detail for a file that is not clean. */
  lockedDetail(state: ScanState): string;
  /** The 409 for a decision a file in state `from` cannot take to `to`. */
  notReviewable(from: ScanState, to: ScanState): AppError;
  /** For files the scan pass checks (scannedFileColumns): the 409 detail for `clean` asked before the scan ran. */
  notScannedDetail?: string;
}

/** The record of a staged upload, as the uploader wrote it: pending unless `verdict` says otherwise. */
export function newStoredFile(
  ctx: TenantCtx,
  staged: StagedUpload<unknown>,
  classification: Classification,
  verdict: { scanState: ScanState; scanFinding: string | null } = { scanState: "pending", scanFinding: null },
): StoredFileRow {
  const { id, fileName, size, declaredType, sniffedType, sha256, storageKey, envelope } = staged;
  return {
    id,
    classification,
    fileName,
    size,
    declaredType,
    sniffedType,
    sha256,
    ...verdict,
    storageKey,
    envelope,
    keyId: envelope.kekId,
    reviewedBy: null,
    reviewedAt: null,
    reviewReason: null,
    createdAt: ctx.nowIso,
    updatedAt: ctx.nowIso,
    createdBy: ctx.actorId,
  };
}

/** The same for a file the scan pass will check: pending and queued (not scanned yet). */
export function newScannedFile(ctx: TenantCtx, staged: StagedUpload<unknown>, classification: Classification): ScannedFileRow {
  return { ...newStoredFile(ctx, staged, classification), scannedAt: null };
}

function fileFacts(r: StoredFileRow) {
  return {
    classification: r.classification,
    fileName: r.fileName,
    size: r.size,
    mediaType: r.declaredType,
    sniffedType: r.sniffedType,
    sha256: r.sha256,
    scanState: r.scanState,
  };
}

function reviewFacts(r: StoredFileRow) {
  return {
    scanFinding: r.scanFinding,
    reviewedBy: r.reviewedBy,
    reviewedAt: r.reviewedAt,
    reviewReason: r.reviewReason,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
  };
}

/** A file's published fields (`mediaType` is the declared type); never its storage key or envelope. */
export function storedFileDto(r: StoredFileRow) {
  return { ...fileFacts(r), ...reviewFacts(r) };
}

/** The same for a scanned file, with `scanned`: whether the scan pass has run. */
export function scannedFileDto(r: ScannedFileRow) {
  return { ...fileFacts(r), scanned: r.scannedAt !== null, ...reviewFacts(r) };
}

/**
 * The decrypted bytes of a clean file. In one transaction `load` finds the record
 * the caller may see (the domain's 404s), anything not clean is 423
 * `evidence_locked`, and `recordDownload` writes the domain's history before the
 * first byte leaves. GCM verifies at the end: a tampered blob ends the stream with
 * an error instead of completing it.
 */
export async function openCleanFile<C extends TenantCtx, R extends StoredFileRow>(
  ctx: C,
  kind: StoredFileKind,
  load: (ctx: TxCtx<C>) => Promise<R>,
  recordDownload: (ctx: TxCtx<C>, row: R) => Promise<void>,
): Promise<{ row: R; content: ReadableStream<Uint8Array> }> {
  const row = await withTx(ctx, async (ctx) => {
    const r = await load(ctx);
    if (r.scanState !== "clean") throw new AppError("evidence_locked", kind.lockedDetail(r.scanState));
    await recordDownload(ctx, r);
    return r;
  });
  const content = await openEncryptedBlob(ctx, { purpose: kind.purpose, id: row.id, storageKey: row.storageKey, envelope: row.envelope });
  return { row, content };
}

export interface ReviewInput {
  decision: "clean" | "quarantine";
  reason?: string | undefined;
}

/**
 * A reviewer's decision on a pending file, in the caller's transaction: never the
 * uploader's own (403 `maker_cannot_decide`), only from pending (the kind's 409), and
 * for a scanned kind `clean` only once the scan has run. Returns the row as decided
 * and the move, for the domain's history.
 */
export async function reviewStoredFile<R extends StoredFileRow & Partial<Pick<ScannedFileRow, "scannedAt">>>(
  ctx: TxCtx,
  kind: StoredFileKind,
  row: R,
  input: ReviewInput,
): Promise<{ row: R; from: ScanState; to: "clean" | "quarantined" }> {
  if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "you uploaded this file; another reviewer must decide it");
  const to = input.decision === "clean" ? ("clean" as const) : ("quarantined" as const);
  if (!mayMoveScanState(row.scanState, to)) throw kind.notReviewable(row.scanState, to);
  if (to === "clean" && kind.notScannedDetail !== undefined && row.scannedAt === null) throw new AppError("state_conflict", kind.notScannedDetail);
  const change = { scanState: to, reviewedBy: ctx.actorId, reviewedAt: ctx.nowIso, reviewReason: input.reason || null, updatedAt: ctx.nowIso };
  await (writer(ctx) as Querier<Record<string, never>>)
    .update(kind.table as SQLiteTable)
    .set(change as never)
    .where(eq(kind.table.id, row.id));
  return { row: { ...row, ...change }, from: row.scanState, to };
}

/**
 * The response of a content download: the declared type, an attachment with the
 * uploaded name (RFC 6266), `Repr-Digest` the SHA-256 reported at upload (RFC 9530).
 */
export function fileResponse(
  file: { mediaType: string; size: number; fileName: string; sha256: string },
  content: ReadableStream<Uint8Array>,
  extraHeaders: Record<string, string> = {},
): Response {
  const headers = new Headers({
    "Content-Type": file.mediaType,
    "Content-Length": String(file.size),
    "Content-Disposition": attachmentDisposition(file.fileName),
    "Repr-Digest": `sha-256=:${Buffer.from(file.sha256, "hex").toString("base64")}:`,
    ...extraHeaders,
  });
  return new Response(content, { status: 200, headers });
}

/** RFC 6266 Content-Disposition for a download: the name UTF-8 percent-encoded, plus an ASCII fallback. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
