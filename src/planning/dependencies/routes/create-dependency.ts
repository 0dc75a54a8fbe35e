import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { CreateDependency, Dependency } from "../dependencies.schemas.ts";
import { createDependency as create } from "../dependencies.service.ts";

export const createDependency = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/dependencies",
  operationId: "createDependency",
  summary: "Add a dependency between two work items",
  description: [
    "`toId` depends on `fromId` (finish_to_start, start_to_start, finish_to_finish or start_to_finish, with `lagMinutes`). Both must be work items of this project (400 at their path).",
    "Every kind counts as precedence: an edge that would close a loop is 409 cycle_detected whose `cycle` lists the loop's work item ids, first and last the same. The same pair twice is 409 duplicate.",
  ].join(" "),
  tags: ["Dependencies"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  body: CreateDependency,
  file: import.meta.path,
  responses: { 201: { description: "The dependency", schema: Dependency } },
  handler: async (ctx, { params, body }) => ({ status: 201, body: await create(ctx, params.projectId, body) }),
});
