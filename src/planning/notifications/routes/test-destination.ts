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
    "Sends one test message through the destination's provider and records the safe disposition (`sent`, `provider_unconfigured`, `provider_failure`, `destination_unavailable`, `rate_limited`) on it. A failed send is still 200: the disposition is the answer. The message is sent outside the partner's write transaction, so a slow provider delays only this answer; a retry with the same Idempotency-Key waits for the first and replays its answer without sending again.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_admin",
  // The message goes out between transactions: a slow relay blocks no other writer of the partner.
  callsOutside: true,
  params: DestinationParams,
  file: import.meta.path,
  responses: { 200: { description: "The destination with its last test", schema: Destination } },
  handler: async (ctx, { params }) => ({ status: 200, body: await test(ctx, params.projectId, params.destinationId) }),
});
