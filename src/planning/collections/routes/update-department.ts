import { updateRoute } from "../collection-routes.ts";
import { UpdateDepartment, Department } from "../collections.schemas.ts";

export const updateDepartment = updateRoute({
  collection: "departments",
  operationId: "updateDepartment",
  summary: "Change one of the project's departments (versioned)",
  tag: "Departments",
  body: UpdateDepartment,
  record: Department,
  file: import.meta.path,
});
