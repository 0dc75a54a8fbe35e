import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListProjectsQuery, ProjectList } from "../projects.schemas.ts";
import { listProjects as list } from "../projects.service.ts";

export const listProjects = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects",
  operationId: "listProjects",
  summary: "List the projects the caller can see",
  description: "Projects the caller is a member of (every project for planning_admin holders), ordered by (updatedAt, id) descending.",
  tags: ["Projects"],
  auth: "session",
  capability: "planning_view",
  query: ListProjectsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of projects", schema: ProjectList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
