import { getRoute } from "../collection-routes.ts";
import { Department } from "../collections.schemas.ts";

export const getDepartment = getRoute({
  collection: "departments",
  operationId: "getDepartment",
  summary: "Read one of the project's departments",
  tag: "Departments",
  record: Department,
  file: import.meta.path,
});
