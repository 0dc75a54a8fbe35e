import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { ProjectWorkspace } from "../workspace.schemas.ts";
import { getProjectWorkspace } from "../workspace.service.ts";

export const getProject = defineRoute({
  family: "planning",
  method: "get",
  // Next meetings are those not yet started: the answer moves with the clock.
  freshness: "clock",
  path: "/projects/{projectId}",
  operationId: "getProject",
  summary: "Load the project workspace",
  description:
    "The project with its members, exact counts per collection, its gates, its highest risks and its next meetings, read in one snapshot. A project out of the caller's scope (not a member, no planning_admin) is 404.",
  tags: ["Projects"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  file: import.meta.path,
  responses: { 200: { description: "The workspace", schema: ProjectWorkspace } },
  handler: async (ctx, { params }) => ({ status: 200, body: await getProjectWorkspace(ctx, params.projectId) }),
});
