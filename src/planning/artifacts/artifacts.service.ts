// Protected project files: stored files (platform/stored-files) uploaded through the
// service (multipart, streamed and encrypted into the content store like AMS
// evidence), read back only through the authorized proxy once a reviewer cleared
// them, after the `scans` job scanned them (as evidence). Their history is the planning audit.
import type { z } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import type { RequestCtx } from "../../platform/http/context.ts";
import type { Staged } from "../../platform/http/define-route.ts";
import { AppError } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { stageEncryptedUpload, type StagedUpload } from "../../platform/stored-files/upload.ts";
import { newStoredFile, openCleanFile, reviewStoredFile, scannedFileDto, type StoredFileKind } from "../../platform/stored-files/stored-files.ts";
import { scanPendingFiles } from "../../platform/stored-files/scan.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { typeMismatch } from "../../platform/stored-files/sniff.ts";
import { recordAudit } from "../audit/index.ts";
import { requireProjectAccess } from "../projects/index.ts";
import { COLLECTIONS, requireRecord } from "../collections/index.ts";
import { planningArtifacts } from "./artifacts.tables.ts";
import { ArtifactUploadFields, type ReviewArtifact } from "./artifacts.schemas.ts";

type ArtifactRow = typeof planningArtifacts.$inferSelect;
export type StagedArtifact = StagedUpload<z.output<typeof ArtifactUploadFields>>;

/** Artifacts as stored files: sniffed at upload, scanned by the `scans` job, cleared only after it; only a pending file is reviewed. */
const ARTIFACT_FILES: StoredFileKind<typeof planningArtifacts> = {
  purpose: "artifact",
  table: planningArtifacts,
  lockedDetail: (state) => `the artifact is ${state}; only a clean artifact can be read`,
  notReviewable: (from) => new AppError("state_conflict", `the artifact is ${from}; only a pending artifact is reviewed`, { extras: { currentState: from } }),
  notScannedDetail: "the artifact is pending and the automatic scan has not run yet; it can be cleared once scanned",
};

export function toArtifactDto(r: ArtifactRow) {
  return { id: r.id, projectId: r.projectId, planningRecordId: r.planningRecordId, ...scannedFileDto(r), updatedAt: r.updatedAt };
}

/**
 * POST /projects/{projectId}/artifacts, first half: the project is checked (404 out
 * of scope, 403 for its viewers) before a byte is stored; then the file streams,
 * encrypted, into the store.
 */
export async function stageArtifactUpload(ctx: RequestCtx, projectId: string, request: Request): Promise<Staged<StagedArtifact>> {
  await requireProjectAccess(ctx, projectId, "edit");
  return stageEncryptedUpload(ctx, request, { purpose: "artifact", fields: ArtifactUploadFields, maxBytes: ctx.deps.config.evidenceMaxBytes });
}

/** Second half, in the request's transaction: the record, `pending` (or `quarantined` when the bytes contradict the declared type). */
export async function createArtifact(ctx: RequestCtx, projectId: string, staged: StagedArtifact) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const { classification, planningRecordId } = staged.fields;
    if (planningRecordId) await requireRecord(ctx, projectId, COLLECTIONS, planningRecordId, "/body/planningRecordId");
    const finding = typeMismatch(staged.declaredType, staged.sniffedType) ?? null;
    const row: ArtifactRow = {
      ...newStoredFile(ctx, staged, classification, { scanState: finding ? "quarantined" : "pending", scanFinding: finding }),
      scannedAt: null,
      projectId,
      planningRecordId: planningRecordId ?? null,
    };
    await writer(ctx).insert(planningArtifacts).values(row);
    await recordAudit(ctx, { projectId, recordType: "artifact", recordId: row.id, action: "uploaded", data: { size: row.size, sha256: row.sha256, mediaType: row.declaredType, classification, scanState: row.scanState } });
    return toArtifactDto(row);
  });
}

/**
 * The artifact if the caller may see it: its project in scope (else 404) and,
 * for `restricted` files, planning_review (else 404 too).
 */
async function loadVisible(ctx: RequestCtx, id: string): Promise<ArtifactRow> {
  const row = (await db(ctx).select().from(planningArtifacts).where(eq(planningArtifacts.id, id)))[0];
  if (!row) throw new AppError("not_found", "artifact not found");
  await requireProjectAccess(ctx, row.projectId, "view").catch((err: unknown) => {
    throw err instanceof AppError && err.code === "not_found" ? new AppError("not_found", "artifact not found") : err;
  });
  if (row.classification === "restricted" && !ctx.capabilities.has("planning_review")) throw new AppError("not_found", "artifact not found");
  return row;
}

/** GET /artifacts/{artifactId}/content: the decrypted bytes of a clean file (423 otherwise); the download is audited first. */
export async function openArtifactContent(ctx: RequestCtx, id: string) {
  const { row, content } = await openCleanFile(
    ctx,
    ARTIFACT_FILES,
    (ctx) => loadVisible(ctx, id),
    (ctx, r) => recordAudit(ctx, { projectId: r.projectId, recordType: "artifact", recordId: r.id, action: "downloaded", data: { size: r.size } }),
  );
  return { artifact: toArtifactDto(row), content };
}

/** POST /artifacts/{artifactId}/review: a reviewer other than the uploader clears or quarantines a pending file. */
export async function reviewArtifact(ctx: RequestCtx, id: string, input: z.output<typeof ReviewArtifact>) {
  return withTx(ctx, async (ctx) => {
    const { row, from, to } = await reviewStoredFile(ctx, ARTIFACT_FILES, await loadVisible(ctx, id), input);
    await recordAudit(ctx, { projectId: row.projectId, recordType: "artifact", recordId: id, action: "reviewed", data: { decision: input.decision, from, to } });
    return toArtifactDto(row);
  });
}

// ---------------------------------------------------------------- scan

/** The scan job's probe (reads only): now when an artifact waits for its scan (planning_artifacts_scan_queue_idx), else null. */
export async function artifactScanDueAt(ctx: TenantCtx): Promise<string | null> {
  const waiting = await db(ctx)
    .select({ id: planningArtifacts.id })
    .from(planningArtifacts)
    .where(and(eq(planningArtifacts.scanState, "pending"), isNull(planningArtifacts.scannedAt)))
    .limit(1);
  return waiting.length > 0 ? ctx.nowIso : null;
}

/** One batch of the artifacts' scan queue, oldest first (the `scans` job); each outcome is audited in its transaction. */
export async function scanPendingArtifacts(ctx: TenantCtx, limit = 20): Promise<number> {
  return scanPendingFiles(ctx, ARTIFACT_FILES, limit, async (ctx, row, outcome) => {
    const projectId = (row as ArtifactRow).projectId;
    await recordAudit(ctx, {
      projectId,
      recordType: "artifact",
      recordId: row.id,
      action: "scanned",
      data: { outcome: outcome.scanState, ...(outcome.finding ? { finding: outcome.finding } : {}), clamd: ctx.deps.config.clamd !== undefined },
    });
  });
}
