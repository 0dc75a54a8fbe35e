import { z } from "@hono/zod-openapi";
import { Id, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { CLASSIFICATIONS, SCAN_STATES } from "../../platform/stored-files/states.ts";

export const ArtifactParams = z.strictObject({ artifactId: Id });

/** The text parts of the upload form (the `file` part is read as a stream). */
export const ArtifactUploadFields = z.strictObject({
  classification: z.enum(CLASSIFICATIONS),
  planningRecordId: Id.optional().openapi({ description: "A record of this project the file belongs to" }),
});

export const ArtifactUploadForm = z
  .object({
    file: z.string().openapi({ type: "string", format: "binary", description: "The file, with its filename and Content-Type" }),
    classification: z.enum(CLASSIFICATIONS),
    planningRecordId: Id.optional(),
  })
  .openapi("ArtifactUploadForm");

export const ReviewArtifact = z
  .strictObject({ decision: z.enum(["clean", "quarantine"]), reason: freeText(2000, { multiline: true }).optional() })
  .openapi("ReviewArtifact");

export const Artifact = z
  .object({
    id: Id,
    projectId: Id,
    planningRecordId: Id.nullable(),
    classification: z.enum(CLASSIFICATIONS),
    fileName: z.string(),
    size: z.number().int(),
    mediaType: z.string().openapi({ description: "The declared Content-Type of the file part" }),
    sniffedType: z.string().openapi({ description: "What the file's first bytes say it is" }),
    sha256: z.string().openapi({ description: "Hex SHA-256 of the plaintext" }),
    scanState: z.enum(SCAN_STATES),
    scanned: z.boolean().openapi({ description: "The automatic scan (the `scans` job: magic bytes, and clamd when configured) has run; `clean` waits for it" }),
    scanFinding: z.string().nullable().openapi({ description: "Why the file was quarantined or failed: a type contradiction at upload, a scanner signature or a scanner error" }),
    reviewedBy: z.string().nullable(),
    reviewedAt: Timestamp.nullable(),
    reviewReason: z.string().nullable(),
    createdBy: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Artifact");

export const ArtifactContent = z.string().openapi({ type: "string", format: "binary" });
