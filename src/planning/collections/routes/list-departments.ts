import { listRoute } from "../collection-routes.ts";
import { PlainListQuery, DepartmentList } from "../collections.schemas.ts";

export const listDepartments = listRoute({
  collection: "departments",
  operationId: "listDepartments",
  summary: "List the project's departments",
  tag: "Departments",
  query: PlainListQuery,
  list: DepartmentList,
  file: import.meta.path,
});
