import { createRoute } from "../collection-routes.ts";
import { CreateDepartment, Department } from "../collections.schemas.ts";

export const createDepartment = createRoute({
  collection: "departments",
  operationId: "createDepartment",
  summary: "Add departments to the project",
  description: "A department (team or function) of the project; `leadUserId` is a project member.",
  tag: "Departments",
  body: CreateDepartment,
  record: Department,
  schemaName: "CreateDepartment",
  file: import.meta.path,
});
