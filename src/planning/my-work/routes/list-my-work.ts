import { defineRoute } from "../../../platform/http/define-route.ts";
import { MyWorkList, MyWorkQuery } from "../my-work.schemas.ts";
import { listMyWork as list } from "../my-work.service.ts";

export const listMyWork = defineRoute({
  family: "planning",
  method: "get",
  path: "/my-work",
  operationId: "listMyWork",
  summary: "The caller's tasks, requirements, reviews and meetings across projects",
  description: [
    "Across every project the caller sees: open work items assigned to them (`task`), open requirements they own (`requirement`), submitted change sets by someone else when they hold planning_review (`review`), and draft, scheduled or running meetings they attend (`meeting`).",
    "Ordered by (updatedAt, id) descending over all kinds together; `kind` filters (comma-separated); `total` is exact.",
  ].join(" "),
  tags: ["My work"],
  auth: "session",
  capability: "planning_view",
  query: MyWorkQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the caller's items", schema: MyWorkList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
