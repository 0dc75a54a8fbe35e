import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/projects.schemas.ts";
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
    "previewDigest is the SHA-256 of the normalised records' canonical JSON (sorted keys), null while any error remains.",
    "`mode: apply` needs that exact digest (else 409 IMPORT_PREVIEW_REQUIRED) and a UUID `idempotencyKey` (a retry with the same key and digest returns the first result;",
    "another digest under the key is 409 idempotency_key_reuse). All records are written in one transaction; any error writes nothing and is a 400 listing every",
    "record's field errors (`/body/records/<i>/…`). Strings that look like content-store locators (object-store or signed URLs, blob keys) are rejected: files",
    "enter as artifacts, never through the JSON import. planning_edit and a project role above viewer.",
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
