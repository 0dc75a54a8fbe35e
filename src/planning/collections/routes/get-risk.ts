import { getRoute } from "../collection-routes.ts";
import { Risk } from "../collections.schemas.ts";

export const getRisk = getRoute({
  collection: "risks",
  operationId: "getRisk",
  summary: "Read one of the project's risks",
  tag: "Risks",
  record: Risk,
  file: import.meta.path,
});
