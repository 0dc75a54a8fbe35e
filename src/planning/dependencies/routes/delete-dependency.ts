import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { DeleteDependencyQuery } from "../dependencies.schemas.ts";
import { deleteDependency as remove } from "../dependencies.service.ts";

export const deleteDependency = defineRoute({
  family: "planning",
  method: "delete",
  path: "/projects/{projectId}/dependencies",
  operationId: "deleteDependency",
  summary: "Remove the dependency between two work items",
  description: "Names the edge by `fromId` and `toId`; no such edge is 404. Audited.",
  tags: ["Dependencies"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  query: DeleteDependencyQuery,
  file: import.meta.path,
  responses: { 204: { description: "Removed" } },
  handler: async (ctx, { params, query }) => {
    await remove(ctx, params.projectId, query);
    return { status: 204 };
  },
});
