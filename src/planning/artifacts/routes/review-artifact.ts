import { defineRoute } from "../../../platform/http/define-route.ts";
import { Artifact, ArtifactParams, ReviewArtifact } from "../artifacts.schemas.ts";
import { reviewArtifact as review } from "../artifacts.service.ts";

export const reviewArtifact = defineRoute({
  family: "planning",
  method: "post",
  path: "/artifacts/{artifactId}/review",
  operationId: "reviewArtifact",
  summary: "Clear or quarantine a pending artifact",
  description:
    "planning_review; never the uploader (403 maker_cannot_decide). `clean` makes the content readable through the proxy; `quarantine` keeps it locked for good. Only a `pending` artifact is reviewed (409 state_conflict naming its state). Audited.",
  tags: ["Artifacts"],
  auth: "session",
  capability: "planning_review",
  params: ArtifactParams,
  body: ReviewArtifact,
  file: import.meta.path,
  responses: { 200: { description: "The artifact as decided", schema: Artifact } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await review(ctx, params.artifactId, body) }),
});
