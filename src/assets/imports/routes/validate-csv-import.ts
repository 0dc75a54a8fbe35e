import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { ImportBatch, ValidateCsvImport } from "../imports.schemas.ts";
import { validateCsvImport as validate } from "../imports.service.ts";
import { stageValidateForm } from "../imports.form.ts";

export const validateCsvImport = defineRoute({
  family: "assets",
  method: "post",
  path: "/imports/csv/validate",
  operationId: "validateCsvImport",
  summary: "Dry-run a CSV of assets and store the result as an import batch",
  description: [
    "Always a dry run: nothing but the batch is written. multipart/form-data with `file` (at most 5 MiB: 413; at most 10,000 data rows: 400),",
    "`mapping?` (JSON object: source column → field), `preset?` (`snipe-it`, `shelf`, `openboxes`), and beyond the spec `currency?` and `dateOrder?` (`DMY`, `MDY`).",
    "Detects UTF-8 with or without BOM (invalid bytes are read as Windows-1252 and reported as errors at their row and column), CRLF/LF/CR line endings and the delimiter (`,` `;` tab `|`).",
    "Duplicate headers, unmapped required fields (`name`, `location`) and row problems are errors; columns left unmapped are warnings.",
    "Dates (ISO, D/M/Y, M/D/Y, `23 Jan 2024`), money, quantities and enumerations are normalised; the day/month order chosen is reported as a warning.",
    "Locations, parties (owner, supplier), categories and models are resolved by code or name (case-insensitive, active records only); `references` says which exist (with the version read) and which a commit would create.",
    "A quantity-tracked row with quantity 0 is skipped with a warning. Answers 201 with the batch: `validated` when it has no error, else `invalid` (never committable).",
    "Needs `ams_operate`; no Idempotency-Key (read-only POST).",
  ].join(" "),
  tags: ["Imports"],
  auth: "session",
  capability: "ams_operate",
  idempotency: "none",
  streamedBody: { mediaType: "multipart/form-data", schema: ValidateCsvImport, stage: (_ctx, c) => stageValidateForm(c) },
  file: import.meta.path,
  responses: { 201: { description: "The stored batch with its normalised rows, errors and warnings", schema: ImportBatch, headers: LocationHeader } },
  handler: async (ctx, { staged, query }) => {
    const batch = await validate(ctx, staged);
    return { status: 201, body: batch, headers: { Location: `/api/assets/imports/${batch.id}?partnerId=${query.partnerId}` } };
  },
});
