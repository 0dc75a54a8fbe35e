import { listRoute } from "../collection-routes.ts";
import { PlainListQuery, GateList } from "../collections.schemas.ts";

export const listGates = listRoute({
  collection: "gates",
  operationId: "listGates",
  summary: "List the project's gates",
  tag: "Gates",
  query: PlainListQuery,
  list: GateList,
  file: import.meta.path,
});
