// The published surface of assets/hub: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { evaluateReplenishmentRules, replenishmentDueAt } from "./replenishment/replenishment.service.ts";
export { ListHubTasksQuery } from "./tasks/tasks.schemas.ts";
