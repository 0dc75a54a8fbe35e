import { defineRoute } from "../../../platform/http/define-route.ts";
import { ChangeSetDetail, ChangeSetParams } from "../change-sets.schemas.ts";
import { getChangeSet as get } from "../change-sets.service.ts";

export const getChangeSet = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/change-sets/{changeSetId}",
  operationId: "getChangeSet",
  summary: "Read a change set",
  description: "Beyond the spec's list: one set with its operations, review, cancellation and, when conflicted, its conflicts, plus its state `history` (every state it entered, with actor, server time and reason).",
  tags: ["Change sets"],
  auth: "session",
  capability: "planning_view",
  params: ChangeSetParams,
  file: import.meta.path,
  responses: { 200: { description: "The change set", schema: ChangeSetDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.projectId, params.changeSetId) }),
});
