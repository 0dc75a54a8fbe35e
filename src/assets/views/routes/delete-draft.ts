import { defineRoute } from "../../../platform/http/define-route.ts";
import { DraftParams, DraftQuery } from "../views.schemas.ts";
import { deleteDraft as remove } from "../views.service.ts";

export const deleteDraft = defineRoute({
  family: "assets",
  method: "delete",
  path: "/drafts/{workflowKey}",
  operationId: "deleteDraft",
  summary: "Delete the caller's draft",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  params: DraftParams,
  query: DraftQuery,
  file: import.meta.path,
  responses: { 204: { description: "Deleted" } },
  handler: async (ctx, { params, query }) => {
    await remove(ctx, params.workflowKey, query.route);
    return { status: 204 };
  },
});
