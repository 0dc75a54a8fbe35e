import { defineRoute } from "../../../platform/http/define-route.ts";
import { fileResponse } from "../../../platform/stored-files/stored-files.ts";
import { ArtifactContent, ArtifactParams } from "../artifacts.schemas.ts";
import { openArtifactContent } from "../artifacts.service.ts";

export const getArtifactContent = defineRoute({
  family: "planning",
  method: "get",
  path: "/artifacts/{artifactId}/content",
  operationId: "getArtifactContent",
  summary: "Download a clean artifact through the authorized proxy",
  description: [
    "The service decrypts and streams the bytes itself; it never redirects to the content store. Only a `clean` artifact is served: pending,",
    "quarantined or failed is 423 evidence_locked. An artifact of a project outside the caller's scope (or restricted, without planning_review) is 404.",
    "`Repr-Digest` carries the SHA-256 reported at upload. Each download is audited.",
  ].join(" "),
  tags: ["Artifacts"],
  auth: "session",
  capability: "planning_view",
  params: ArtifactParams,
  problems: [423],
  file: import.meta.path,
  responses: {
    200: {
      description: "The file's bytes",
      schema: ArtifactContent,
      mediaType: "application/octet-stream",
      headers: {
        "Content-Disposition": { description: "attachment with the uploaded file name" },
        "Repr-Digest": { description: "sha-256 of the bytes (RFC 9530)" },
      },
    },
  },
  handler: async (ctx, { params }) => {
    const { artifact, content } = await openArtifactContent(ctx, params.artifactId);
    return { status: 200, body: fileResponse(artifact, content, { "Cache-Control": "private, no-store" }) };
  },
});
