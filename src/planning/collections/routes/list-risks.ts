import { listRoute } from "../collection-routes.ts";
import { PlainListQuery, RiskList } from "../collections.schemas.ts";

export const listRisks = listRoute({
  collection: "risks",
  operationId: "listRisks",
  summary: "List the project's risks",
  tag: "Risks",
  query: PlainListQuery,
  list: RiskList,
  file: import.meta.path,
});
