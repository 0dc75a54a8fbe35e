import { defineRoute } from "../../../platform/http/define-route.ts";
import { AppError } from "../../../platform/errors/app-error.ts";
import { ProjectParams } from "../../projects/index.ts";
import { requireProjectAccess } from "../../projects/index.ts";
import { EventCatalog } from "../canonical.schemas.ts";
import { loadEventCatalog } from "../canonical.service.ts";

export const getEventCatalog = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/event-catalog",
  operationId: "getEventCatalog",
  summary: "Read the project's canonical event live: tiers, inclusions, add-ons and shop",
  description: "Read from the canonical records at request time (one snapshot). A project without a linked event is 409 state_conflict.",
  tags: ["Canonical event"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  problems: [409],
  file: import.meta.path,
  responses: { 200: { description: "The event and what is sold with it", schema: EventCatalog } },
  handler: async (ctx, { params }) => {
    const project = await requireProjectAccess(ctx, params.projectId, "view");
    if (project.eventId === null) throw new AppError("state_conflict", "the project is not linked to an event yet");
    return { status: 200, body: await loadEventCatalog(ctx, project.eventId) };
  },
});
