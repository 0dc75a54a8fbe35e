// Protected project files: uploaded through the service (multipart, streamed and
// encrypted into the content store like AMS evidence, platform/blobs), read back
// only through the authorized proxy once a reviewer cleared them.
import type { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { RequestCtx } from "../../platform/http/context.ts";
import type { Staged } from "../../platform/http/define-route.ts";
import { AppError } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { openEncryptedBlob, stageEncryptedUpload, type StagedUpload, storedFileColumns } from "../../platform/blobs/encrypted-upload.ts";
import { typeMismatch } from "../../platform/blobs/sniff.ts";
import { recordAudit } from "../audit/audit.service.ts";
import { requireProjectAccess } from "../projects/projects.service.ts";
import { requireRecord } from "../collections/collections.service.ts";
import { COLLECTIONS } from "../collections/collections.tables.ts";
import { planningArtifacts } from "./artifacts.tables.ts";
import { ArtifactUploadFields, type ReviewArtifact } from "./artifacts.schemas.ts";

type ArtifactRow = typeof planningArtifacts.$inferSelect;
export type StagedArtifact = StagedUpload<z.output<typeof ArtifactUploadFields>>;

/** Scan moves (contract §9): only a pending file is decided. */
const FROM_PENDING = new Set(["clean", "quarantined", "failed"]);

export function toArtifactDto(r: ArtifactRow) {
  return {
    id: r.id,
    projectId: r.projectId,
    planningRecordId: r.planningRecordId,
    classification: r.classification,
    fileName: r.fileName,
    size: r.size,
    mediaType: r.declaredType,
    sniffedType: r.sniffedType,
    sha256: r.sha256,
    scanState: r.scanState,
    scanFinding: r.scanFinding,
    reviewedBy: r.reviewedBy,
    reviewedAt: r.reviewedAt,
    reviewReason: r.reviewReason,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
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
      ...storedFileColumns(staged),
      projectId,
      planningRecordId: planningRecordId ?? null,
      classification,
      scanState: finding ? "quarantined" : "pending",
      scanFinding: finding,
      reviewedBy: null,
      reviewedAt: null,
      reviewReason: null,
      createdAt: ctx.nowIso,
      updatedAt: ctx.nowIso,
      createdBy: ctx.actorId,
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
  const row = await withTx(ctx, async (ctx) => {
    const r = await loadVisible(ctx, id);
    if (r.scanState !== "clean") throw new AppError("evidence_locked", `the artifact is ${r.scanState}; only a clean artifact can be read`);
    await recordAudit(ctx, { projectId: r.projectId, recordType: "artifact", recordId: r.id, action: "downloaded", data: { size: r.size } });
    return r;
  });
  const content = await openEncryptedBlob(ctx, { purpose: "artifact", id: row.id, storageKey: row.storageKey, envelope: row.envelope });
  return { artifact: toArtifactDto(row), content };
}

/** POST /artifacts/{artifactId}/review: a reviewer other than the uploader clears or quarantines a pending file. */
export async function reviewArtifact(ctx: RequestCtx, id: string, input: z.output<typeof ReviewArtifact>) {
  return withTx(ctx, async (ctx) => {
    const row = await loadVisible(ctx, id);
    if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "you uploaded this file; another reviewer must decide it");
    const to = input.decision === "clean" ? ("clean" as const) : ("quarantined" as const);
    if (row.scanState !== "pending" || !FROM_PENDING.has(to)) {
      throw new AppError("state_conflict", `the artifact is ${row.scanState}; only a pending artifact is reviewed`, { extras: { currentState: row.scanState } });
    }
    const change = { scanState: to, reviewedBy: ctx.actorId, reviewedAt: ctx.nowIso, reviewReason: input.reason || null, updatedAt: ctx.nowIso };
    await writer(ctx).update(planningArtifacts).set(change).where(eq(planningArtifacts.id, id));
    await recordAudit(ctx, { projectId: row.projectId, recordType: "artifact", recordId: id, action: "reviewed", data: { decision: input.decision, from: row.scanState, to } });
    return toArtifactDto({ ...row, ...change });
  });
}
