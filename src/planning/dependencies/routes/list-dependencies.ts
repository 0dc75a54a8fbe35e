import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { DependencyList, ListDependenciesQuery } from "../dependencies.schemas.ts";
import { listDependencies as list } from "../dependencies.service.ts";

export const listDependencies = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/dependencies",
  operationId: "listDependencies",
  summary: "List the project's dependencies",
  description:
    "Beyond the spec: the edges of the project's work graph, so a client can draw it (a timeline's arrows) without keeping its own copy. Newest first ((createdAt, id) descending; edges are added and removed, never edited); `recordId` keeps the edges into or out of one work item. planning_view, project members only.",
  tags: ["Dependencies"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  query: ListDependenciesQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of dependencies", schema: DependencyList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.projectId, query) }),
});
