import { createRoute } from "../collection-routes.ts";
import { CreateRequirement, Requirement } from "../collections.schemas.ts";

export const createRequirement = createRoute({
  collection: "requirements",
  operationId: "createRequirement",
  summary: "Add requirements to the project",
  description: "A requirement with its owner, due date and acceptance criteria, created `draft`.",
  tag: "Requirements",
  body: CreateRequirement,
  record: Requirement,
  schemaName: "CreateRequirement",
  file: import.meta.path,
});
