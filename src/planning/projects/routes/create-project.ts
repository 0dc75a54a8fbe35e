import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateProject, ProjectDetail } from "../projects.schemas.ts";
import { createProject as create } from "../projects.service.ts";

export const createProject = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects",
  operationId: "createProject",
  summary: "Create a planning project",
  description:
    "Starts in state `concept`. `members` must be active members of the partner (400 at `/body/members/{i}/userId`); the creator is always a lead. Only members (and planning_admin holders) see the project.",
  tags: ["Projects"],
  auth: "session",
  capability: "planning_edit",
  body: CreateProject,
  file: import.meta.path,
  responses: { 201: { description: "The project with its members", schema: ProjectDetail, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const project = await create(ctx, body);
    return { status: 201, body: project, headers: { Location: `/api/planning/projects/${project.id}?partnerId=${query.partnerId}` } };
  },
});
