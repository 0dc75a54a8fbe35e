import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { EvidenceContent } from "../evidence.schemas.ts";
import { openEvidenceContent } from "../evidence.service.ts";
import { fileResponse } from "../../../platform/stored-files/stored-files.ts";

export const getEvidenceContent = defineRoute({
  family: "assets",
  method: "get",
  path: "/evidence/{id}/content",
  operationId: "getEvidenceContent",
  summary: "Download the decrypted bytes of clean evidence",
  description: [
    "Streams the file as uploaded (Content-Type its declared mediaType, as an attachment, with `Repr-Digest` carrying its SHA-256) only when its",
    "scanState is `clean`; pending, quarantined or failed evidence is 423 evidence_locked. Restricted evidence needs ams_admin (else 404).",
    "Each download is recorded. The bytes are authenticated as they stream: a stored file that fails its integrity check ends the stream with an error.",
  ].join(" "),
  tags: ["Evidence"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  problems: [423],
  file: import.meta.path,
  responses: {
    200: {
      description: "The file's bytes",
      schema: EvidenceContent,
      mediaType: "application/octet-stream",
      headers: {
        "Content-Disposition": { description: "attachment with the uploaded file name" },
        "Repr-Digest": { description: "sha-256 of the bytes (RFC 9530), the sha256 reported at upload" },
      },
    },
  },
  handler: async (ctx, { params }) => {
    const { evidence, content } = await openEvidenceContent(ctx, params.id);
    return { status: 200, body: fileResponse(evidence, content) };
  },
});
