import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { ImportPreview, ImportResult, PlanningImport } from "../imports.schemas.ts";
import { applyImport, previewImport } from "../imports.service.ts";

export const importPlanningRecords = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/imports",
  operationId: "importPlanningRecords",
  summary: "Preview or atomically apply 1 to 500 versioned collection records",
  description: [
    "Each record names its `collection` and carries the collection's create body as `data`, or, with `id` and `expectedVersion`, the fields to update.",
    "`mode: preview` normalises every record through its collection's schema, dry-runs the writes (nothing is kept) and answers `{ records, previewDigest, errors }`:",
    "previewDigest is the SHA-256 of the canonical JSON (sorted keys) of the partner, the project, the normalised records and the version and updatedAt of every",
    "record they update as read at preview; null while any error remains. `mode: apply` needs a UUID `idempotencyKey` (400 without) and recomputes the digest",
    "against the data as it is then: a missing digest, a digest of other records or of another project, or a targeted record that moved since the preview is",
    "409 IMPORT_PREVIEW_REQUIRED (the detail says why; moved records are listed in `changedRecords` as `{ index, collection, id, previewedVersion, currentVersion }`).",
    "A retry with the same key, digest and records returns the first result; anything else under the key is 409 idempotency_key_reuse.",
    "All records are written in one transaction; any error writes nothing and is a 400 listing every record's field errors (`/body/records/<i>/…`).",
    "Content-store locators anywhere in a record (any string, at any depth, keys included) are field errors: URLs on the configured S3_ENDPOINT host or its",
    "subdomains (with or without a scheme), object-store schemes (`s3://`, `gs://`, `azblob://`, …) and hosts (S3, Azure Blob, GCS, R2, …), presigned or signed",
    "URLs on any host (query parameters `X-Amz-*`, `X-Goog-*`, `Signature`, `Expires`, `GoogleAccessId`, `AWSAccessKeyId`, `Policy`, `Key-Pair-Id`, Azure SAS",
    "`sig`/`se`/`sp`/`sv`), and this service's blob keys, also percent-encoded: files enter as artifacts, never through the JSON import.",
    "planning_edit and a project role above viewer.",
  ].join(" "),
  tags: ["Imports"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  body: PlanningImport,
  file: import.meta.path,
  responses: {
    200: { description: "The preview, or the applied import", schema: ImportPreview.or(ImportResult) },
  },
  handler: async (ctx, { params, body }) => ({
    status: 200,
    body: body.mode === "preview" ? await previewImport(ctx, params.projectId, body) : await applyImport(ctx, params.projectId, body),
  }),
});
