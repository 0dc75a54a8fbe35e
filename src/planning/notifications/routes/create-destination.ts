import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateDestination, Destination, ProjectOnlyParams } from "../notifications.schemas.ts";
import { createDestination as create } from "../destinations.service.ts";

export const createDestination = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/destinations",
  operationId: "createDestination",
  summary: "Set up a write-only project destination",
  description:
    "A project-level target: a team mailbox (`email`), a messenger_a group chat (`messenger_a_group`) or a messenger_b channel (`messenger_b_channel`). " +
    "The target is stored encrypted and never returned: the response and every later read carry a masked form only. 400 at `/body/target` when it does not fit its kind. " +
    "Location names the destination; destinations are write-only, so no GET is served there.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_admin",
  params: ProjectOnlyParams,
  body: CreateDestination,
  file: import.meta.path,
  responses: { 201: { description: "The destination, target masked", schema: Destination, headers: LocationHeader } },
  handler: async (ctx, { params, body, query }) => {
    const d = await create(ctx, params.projectId, body);
    return { status: 201, body: d, headers: { Location: `/api/planning/projects/${params.projectId}/destinations/${d.id}?partnerId=${query.partnerId}` } };
  },
});
