import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { ChangeSetList, ListChangeSetsQuery } from "../change-sets.schemas.ts";
import { listChangeSets as list } from "../change-sets.service.ts";

export const listChangeSets = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/change-sets",
  operationId: "listChangeSets",
  summary: "List the project's change sets",
  description: "Ordered by (updatedAt, id) descending; `state` filters (comma-separated).",
  tags: ["Change sets"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  query: ListChangeSetsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of change sets", schema: ChangeSetList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.projectId, query) }),
});
