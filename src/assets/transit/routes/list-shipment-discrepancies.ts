import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ListShipmentDiscrepanciesQuery, ShipmentDiscrepancyList } from "../transit.schemas.ts";
import { listShipmentDiscrepancies as list } from "../shipments.service.ts";

export const listShipmentDiscrepancies = defineRoute({
  family: "assets",
  method: "get",
  path: "/shipments/{id}/discrepancies",
  operationId: "listShipmentDiscrepancies",
  summary: "A shipment's discrepancies, paged",
  description: [
    "Beyond the spec: every discrepancy receipts recorded (missing, damaged, unexpected), newest first ((recordedAt, id) descending), exact `total`,",
    "and a signed cursor bound to this shipment and the filters. The shipment's detail and command answers embed only the first 200.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  query: ListShipmentDiscrepanciesQuery,
  file: import.meta.path,
  responses: { 200: { description: "A page of the shipment's discrepancies", schema: ShipmentDiscrepancyList } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await list(ctx, params.id, query) }),
});
