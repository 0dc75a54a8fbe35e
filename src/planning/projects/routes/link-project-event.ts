import { defineRoute } from "../../../platform/http/define-route.ts";
import { LinkEvent, ProjectDetail, ProjectParams } from "../projects.schemas.ts";
import { linkProjectEvent as link } from "../projects.service.ts";

export const linkProjectEvent = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/link-event",
  operationId: "linkProjectEvent",
  summary: "Link the project to its canonical event, once",
  description:
    "The link is permanent: a project already linked (to this or another event) is 409 state_conflict. An unknown event is 400 at `/body/eventId`, and so is an event reachable only through projects the caller does not see (an event some project has linked belongs to those projects; one no project has linked yet is partner-level; planning_admin sees every project). The project's state does not change.",
  tags: ["Projects"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  body: LinkEvent,
  file: import.meta.path,
  responses: { 200: { description: "The project, now linked", schema: ProjectDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await link(ctx, params.projectId, body) }),
});
