import { createRoute } from "../collection-routes.ts";
import { CreateRisk, Risk } from "../collections.schemas.ts";

export const createRisk = createRoute({
  collection: "risks",
  operationId: "createRisk",
  summary: "Add risks to the project",
  description: "A risk in ISO 31000 terms: risk source, consequence, likelihood and impact on 1–5 scales (level = likelihood × impact), owner, treatment option and plan, review date.",
  tag: "Risks",
  body: CreateRisk,
  record: Risk,
  schemaName: "CreateRisk",
  file: import.meta.path,
});
