import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams, ProjectDetail, UpdateProject } from "../projects.schemas.ts";
import { updateProject as update } from "../projects.service.ts";

export const updateProject = defineRoute({
  family: "planning",
  method: "patch",
  path: "/projects/{projectId}",
  operationId: "updateProject",
  summary: "Change a project (versioned)",
  description: [
    "`expectedVersion` is required (409 version_conflict when stale).",
    "`state` moves per contract §9: concept → active → readiness → handed_off → archived; concept/active/readiness ↔ paused (a paused project resumes to the state it was paused from); open or paused → cancelled → archived; any other move is 409 state_conflict naming the current state.",
    "Once handed off, cancelled or archived, only `state` may change (409 otherwise).",
    "`members` replaces the member list: project leads and planning_admin holders only (403 otherwise), and it must keep a lead.",
  ].join(" "),
  tags: ["Projects"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  body: UpdateProject,
  file: import.meta.path,
  responses: { 200: { description: "The project as stored", schema: ProjectDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await update(ctx, params.projectId, body) }),
});
