import { defineRoute } from "../../../platform/http/define-route.ts";
import { ListMovementsQuery, MovementList } from "../movements.schemas.ts";
import { listMovements as list } from "../movements.service.ts";

export const listMovements = defineRoute({
  family: "assets",
  method: "get",
  path: "/movements",
  operationId: "listMovements",
  summary: "Page through the movement chronology",
  description:
    "Every step of every item's story, newest record first ((recordedAt, id) descending), with event time, record time, actor, read point " +
    "and business location. `from` (inclusive) and `to` (exclusive) bound the eventTime. A corrected movement stays in the list " +
    "with `correctedBy` naming its correction; the correction (kind `corrected`) names it in `corrects`. Physical events " +
    "(registered, moved, consumed, checked_out, transferred, returned) and every correction also publish a domain event; activated, " +
    "tagged, reserved, reservation_cancelled, acknowledged and extended are in the chronology only.",
  tags: ["Movements"],
  auth: "session",
  capability: "ams_view",
  query: ListMovementsQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of movements", schema: MovementList } },
  handler: async (ctx, { query }) => ({ status: 200, body: await list(ctx, query) }),
});
