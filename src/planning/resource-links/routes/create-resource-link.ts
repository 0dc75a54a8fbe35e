import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { CreateResourceLink, ResourceLink } from "../resource-links.schemas.ts";
import { createResourceLink as create } from "../resource-links.service.ts";

export const createResourceLink = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/resource-links",
  operationId: "createResourceLink",
  summary: "Link a planning record to a canonical event-service resource",
  description:
    "The resource must be a canonical record of the project's linked event (400 at `/body/resourceId` otherwise; 409 state_conflict when the project has no event) and the planning record one of this project's (400). The same link twice is 409 duplicate.",
  tags: ["Resource links"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  body: CreateResourceLink,
  file: import.meta.path,
  responses: { 201: { description: "The link", schema: ResourceLink } },
  handler: async (ctx, { params, body }) => ({ status: 201, body: await create(ctx, params.projectId, body) }),
});
