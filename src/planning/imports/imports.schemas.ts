import { z } from "@hono/zod-openapi";
import { Id, Timestamp } from "../../platform/http/common-schemas.ts";
import { COLLECTIONS } from "../collections/index.ts";

export const MAX_IMPORT_RECORDS = 500;

const ImportRecordInput = z
  .strictObject({
    collection: z.enum(COLLECTIONS),
    id: Id.optional().openapi({ description: "An existing record of this project to update; absent: a new record" }),
    expectedVersion: z.number().int().min(1).optional().openapi({ description: "Required with id: the record's current version" }),
    data: z.record(z.string(), z.unknown()).openapi({ description: "The collection's create body (new records) or PATCH fields without expectedVersion (updates)" }),
  })
  .openapi("ImportRecordInput");

export const PlanningImport = z
  .strictObject({
    mode: z.enum(["preview", "apply"]),
    records: z.array(ImportRecordInput).min(1).max(MAX_IMPORT_RECORDS),
    previewDigest: z.string().regex(/^[0-9a-f]{64}$/).optional().openapi({ description: "apply: the previewDigest the preview of these records in this project returned; it binds the data they were checked against" }),
    idempotencyKey: z.uuid().optional().openapi({ description: "apply: a UUID; a retry with the same key and digest returns the first result" }),
  })
  .openapi("PlanningImport");

const NormalisedRecord = z
  .object({ collection: z.enum(COLLECTIONS), id: Id.nullable(), expectedVersion: z.number().int().nullable(), data: z.record(z.string(), z.unknown()) })
  .openapi("NormalisedImportRecord");

const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });

export const ImportPreview = z
  .object({
    mode: z.literal("preview"),
    records: z.array(NormalisedRecord),
    previewDigest: z.string().nullable().openapi({
      description: "SHA-256 (hex) of the canonical JSON of the partner, project, normalised records and the version and updatedAt of each record they update; null while there are errors",
    }),
    errors: z.array(FieldErrorSchema).openapi({ description: "Field errors per record (`/body/records/<i>/…`), from the schemas and from a dry run against the current data" }),
  })
  .openapi("ImportPreview");

export const ImportResult = z
  .object({
    mode: z.literal("apply"),
    idempotencyKey: z.string(),
    previewDigest: z.string(),
    records: z.array(z.object({ index: z.number().int(), collection: z.enum(COLLECTIONS), id: Id, version: z.number().int(), action: z.enum(["created", "updated"]) })),
    appliedAt: Timestamp,
    appliedBy: z.string(),
  })
  .openapi("ImportResult");
