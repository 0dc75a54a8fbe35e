import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { ProjectParams } from "../../projects/index.ts";
import { Artifact, ArtifactUploadForm } from "../artifacts.schemas.ts";
import { createArtifact as create, stageArtifactUpload } from "../artifacts.service.ts";

export const createArtifact = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/artifacts",
  operationId: "createArtifact",
  summary: "Upload a protected file to a project",
  description: [
    "multipart/form-data with one `file` part and `classification` (`internal`, `private`, `restricted`), optionally `planningRecordId` (a record of this",
    "project, else 400). The service mediates the upload: the file streams through it, its SHA-256 and size counted, encrypted with a fresh AES-256-GCM",
    "data key wrapped by the service KEK; only ciphertext reaches the content store and no response names a storage location. Beyond EVIDENCE_MAX_BYTES",
    "(50 MiB) is 413. The artifact starts `pending` (locked) — or `quarantined` when its bytes contradict its declared type or are executable.",
    "planning_edit and a project role above viewer; a project out of scope is 404 before anything is stored.",
  ].join(" "),
  tags: ["Artifacts"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  streamedBody: {
    mediaType: "multipart/form-data",
    schema: ArtifactUploadForm,
    stage: (ctx, c) => stageArtifactUpload(ctx, c.req.param("projectId") ?? "", c.req.raw),
  },
  file: import.meta.path,
  responses: { 201: { description: "The artifact, pending review", schema: Artifact, headers: LocationHeader } },
  handler: async (ctx, { params, staged }) => {
    const artifact = await create(ctx, params.projectId, staged);
    return { status: 201, body: artifact, headers: { Location: `/api/planning/artifacts/${artifact.id}/content?partnerId=${ctx.partnerId}` } };
  },
});
