import { updateRoute } from "../collection-routes.ts";
import { UpdateGate, Gate } from "../collections.schemas.ts";

export const updateGate = updateRoute({
  collection: "gates",
  operationId: "updateGate",
  summary: "Change one of the project's gates (versioned)",
  description: "A new `decision` is stamped with the caller and server time; null clears it.",
  tag: "Gates",
  body: UpdateGate,
  record: Gate,
  file: import.meta.path,
});
