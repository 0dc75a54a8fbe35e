import { getRoute } from "../collection-routes.ts";
import { Requirement } from "../collections.schemas.ts";

export const getRequirement = getRoute({
  collection: "requirements",
  operationId: "getRequirement",
  summary: "Read one of the project's requirements",
  tag: "Requirements",
  record: Requirement,
  file: import.meta.path,
});
