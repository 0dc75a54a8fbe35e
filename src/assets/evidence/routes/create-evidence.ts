import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { Evidence, EvidenceUploadForm } from "../evidence.schemas.ts";
import { createEvidence as create, stageEvidenceUpload } from "../evidence.service.ts";

export const createEvidence = defineRoute({
  family: "assets",
  method: "post",
  path: "/evidence",
  operationId: "createEvidence",
  summary: "Upload protected evidence for a target",
  description: [
    "multipart/form-data with one `file` part (its filename and Content-Type are recorded as `fileName` and `mediaType`) and the fields",
    "`targetType`, `targetId` and `classification`; any other part is a 400. The file streams: its SHA-256 and size are counted on the way and its bytes",
    "are encrypted with a fresh AES-256-GCM data key (wrapped by the service KEK) before they reach the content store; beyond EVIDENCE_MAX_BYTES",
    "(default 50 MiB) the upload is 413 payload_too_large. `targetId` must name an existing record of `targetType` (else 400 at /body/targetId).",
    "The record starts `pending` and locked; the scan job checks it within a minute. The Idempotency-Key fingerprint covers the fields and the file's",
    "name, type, size and SHA-256. Needs ams_operate, and ams_admin for `classification=restricted` (403 capability_denied: refused as soon as the field",
    "is read, so a form that sends it before the file stores nothing; sent after the file, the stored bytes are discarded; no record either way).",
  ].join(" "),
  tags: ["Evidence"],
  auth: "session",
  capability: "ams_operate",
  streamedBody: {
    mediaType: "multipart/form-data",
    schema: EvidenceUploadForm,
    stage: (ctx, c) => stageEvidenceUpload(ctx, c.req.raw),
  },
  file: import.meta.path,
  responses: { 201: { description: "The evidence record, pending its scan", schema: Evidence, headers: LocationHeader } },
  handler: async (ctx, { staged, query }) => {
    const record = await create(ctx, staged);
    return { status: 201, body: record, headers: { Location: `/api/assets/evidence/${record.id}/content?partnerId=${query.partnerId}` } };
  },
});
