import { z } from "@hono/zod-openapi";
import { Id, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { CLASSIFICATIONS, SCAN_STATES } from "../../platform/stored-files/states.ts";
import { TARGET_TYPES } from "./evidence.states.ts";

export const Evidence = z
  .object({
    id: Id,
    targetType: z.enum(TARGET_TYPES),
    targetId: z.string(),
    classification: z.enum(CLASSIFICATIONS),
    fileName: z.string(),
    size: z.number().int().openapi({ description: "Plaintext bytes" }),
    mediaType: z.string().openapi({ description: "The type the uploader declared for the file" }),
    sniffedType: z.string().openapi({ description: "The type the file's leading bytes show" }),
    sha256: z.string().openapi({ description: "Hex SHA-256 of the plaintext, computed while the upload streamed" }),
    scanState: z.enum(SCAN_STATES),
    scanned: z.boolean().openapi({ description: "The automatic scan has run (magic bytes, and clamd when configured)" }),
    scanFinding: z.string().nullable().openapi({ description: "Why the file was quarantined or failed, when a scan decided it" }),
    reviewedBy: z.string().nullable(),
    reviewedAt: Timestamp.nullable(),
    reviewReason: z.string().nullable(),
    createdBy: z.string(),
    createdAt: Timestamp,
    canDecide: z.boolean().openapi({
      description:
        "Whether the caller may review this file now: it is pending, the caller did not upload it and holds ams_review (and ams_admin for restricted evidence). " +
        "For building reviewer controls; `clean` also waits for the automatic scan (`scanned`), `quarantine` does not.",
    }),
  })
  .openapi("Evidence", { description: "Protected evidence metadata. Never carries a storage location, key or provider token." });

export const EvidenceList = listEnvelope(Evidence, "EvidenceList");

export const ListEvidenceQuery = z.strictObject({
  targetType: csvEnum(TARGET_TYPES),
  targetId: Id.optional(),
  scanState: csvEnum(SCAN_STATES),
  classification: csvEnum(CLASSIFICATIONS),
  ...PageQueryShape,
});

export const UploadFields = z.strictObject({
  targetType: z.enum(TARGET_TYPES),
  targetId: Id,
  classification: z.enum(CLASSIFICATIONS),
});

/** The multipart form as the OpenAPI document publishes it. */
export const EvidenceUploadForm = z
  .object({
    file: z.string().openapi({ type: "string", format: "binary", description: "The file; its part's Content-Type is the declared media type and its filename the fileName" }),
    targetType: z.enum(TARGET_TYPES),
    targetId: Id,
    classification: z.enum(CLASSIFICATIONS),
  })
  .openapi("EvidenceUpload");

export const ReviewEvidence = z
  .strictObject({
    decision: z.enum(["clean", "quarantine"]),
    reason: freeText(1000, { min: 0, multiline: true }).optional(),
  })
  .openapi("ReviewEvidence");

export const EvidenceContent = z.string().openapi({ type: "string", format: "binary" });
