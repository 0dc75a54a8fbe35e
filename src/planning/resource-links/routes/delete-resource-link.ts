import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { DeleteResourceLinkQuery } from "../resource-links.schemas.ts";
import { deleteResourceLink as remove } from "../resource-links.service.ts";

export const deleteResourceLink = defineRoute({
  family: "planning",
  method: "delete",
  path: "/projects/{projectId}/resource-links",
  operationId: "deleteResourceLink",
  summary: "Remove a planning record's link to a canonical resource",
  description: "Names the link by `resourceType`, `resourceId` and `planningRecordId`; no such link is 404. Audited.",
  tags: ["Resource links"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  query: DeleteResourceLinkQuery,
  file: import.meta.path,
  responses: { 204: { description: "Removed" } },
  handler: async (ctx, { params, query }) => {
    await remove(ctx, params.projectId, query);
    return { status: 204 };
  },
});
