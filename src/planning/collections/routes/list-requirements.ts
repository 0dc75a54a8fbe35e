import { listRoute } from "../collection-routes.ts";
import { RequirementListQuery, RequirementList } from "../collections.schemas.ts";

export const listRequirements = listRoute({
  collection: "requirements",
  operationId: "listRequirements",
  summary: "List the project's requirements",
  tag: "Requirements",
  description: "The project's requirements, ordered by (updatedAt, id) descending; `state` filters (comma-separated). A project out of the caller's scope is 404.",
  query: RequirementListQuery,
  list: RequirementList,
  file: import.meta.path,
});
