import { getRoute } from "../collection-routes.ts";
import { Gate } from "../collections.schemas.ts";

export const getGate = getRoute({
  collection: "gates",
  operationId: "getGate",
  summary: "Read one of the project's gates",
  tag: "Gates",
  record: Gate,
  file: import.meta.path,
});
