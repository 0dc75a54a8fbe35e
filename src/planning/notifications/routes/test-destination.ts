import { defineRoute } from "../../../platform/http/define-route.ts";
import { Destination, DestinationParams } from "../notifications.schemas.ts";
import { testDestination as test } from "../destinations.service.ts";

export const testDestination = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/destinations/{destinationId}/test",
  operationId: "testDestination",
  summary: "Send a test message to a destination",
  description:
    "Sends one test message through the destination's provider and records the safe disposition (`sent`, `provider_unconfigured`, `provider_failure`, `destination_unavailable`, `rate_limited`) on it. A failed send is still 200: the disposition is the answer.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_admin",
  params: DestinationParams,
  file: import.meta.path,
  responses: { 200: { description: "The destination with its last test", schema: Destination } },
  handler: async (ctx, { params }) => ({ status: 200, body: await test(ctx, params.projectId, params.destinationId) }),
});
