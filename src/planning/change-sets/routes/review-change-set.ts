import { defineRoute } from "../../../platform/http/define-route.ts";
import { ChangeSet, ChangeSetParams, ReviewChangeSet } from "../change-sets.schemas.ts";
import { reviewChangeSet as review } from "../change-sets.service.ts";

export const reviewChangeSet = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/change-sets/{changeSetId}/review",
  operationId: "reviewChangeSet",
  summary: "Approve or reject a submitted change set",
  description:
    "planning_review; never the set's author (403 maker_cannot_decide). Only a `submitted` set is reviewed (409 state_conflict naming its state). The decision, reason, reviewer and server time are recorded.",
  tags: ["Change sets"],
  auth: "session",
  capability: "planning_review",
  params: ChangeSetParams,
  body: ReviewChangeSet,
  file: import.meta.path,
  responses: { 200: { description: "The change set, approved or rejected", schema: ChangeSet } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await review(ctx, params.projectId, params.changeSetId, body) }),
});
