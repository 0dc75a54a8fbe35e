import { createRoute } from "../collection-routes.ts";
import { CreateGate, Gate } from "../collections.schemas.ts";

export const createGate = createRoute({
  collection: "gates",
  operationId: "createGate",
  summary: "Add gates to the project",
  description: "A stage gate: criteria (each met or not) and, once decided, the decision with its reason; a `go` decision needs every criterion met (409 state_conflict naming the unmet ones). The decider and time are recorded by the server.",
  tag: "Gates",
  body: CreateGate,
  record: Gate,
  schemaName: "CreateGate",
  file: import.meta.path,
});
