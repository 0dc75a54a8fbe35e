import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { revokeCalendarFeed as revoke } from "../calendar.service.ts";

export const revokeCalendarFeed = defineRoute({
  family: "planning",
  method: "delete",
  path: "/projects/{projectId}/calendar-feed",
  operationId: "revokeCalendarFeed",
  summary: "Revoke your calendar subscription URL for the project",
  description: "The URL stops working at once (404). 404 when you have none.",
  tags: ["Calendar"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  file: import.meta.path,
  responses: { 204: { description: "Revoked" } },
  handler: async (ctx, { params }) => {
    await revoke(ctx, params.projectId);
    return { status: 204 };
  },
});
