import { updateRoute } from "../collection-routes.ts";
import { UpdateRisk, Risk } from "../collections.schemas.ts";

export const updateRisk = updateRoute({
  collection: "risks",
  operationId: "updateRisk",
  summary: "Change one of the project's risks (versioned)",
  tag: "Risks",
  body: UpdateRisk,
  record: Risk,
  file: import.meta.path,
});
