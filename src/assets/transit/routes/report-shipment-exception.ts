import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { ReportShipmentException, ShipmentDetail } from "../transit.schemas.ts";
import { reportShipmentException as report } from "../shipments.service.ts";

export const reportShipmentException = defineRoute({
  family: "assets",
  method: "post",
  path: "/shipments/{id}/exceptions",
  operationId: "reportShipmentException",
  summary: "Report damage, loss, delay or a wrong destination",
  description: [
    "dispatched or in_transit → exception (else 409 state_conflict naming the state). The shipment's `openException` holds it; the history keeps every one.",
    "`itemIds` must name items of the shipment still travelling (400 at the entry otherwise); without it every travelling item is affected. Each affected item gets a `transit_exception` movement",
    "(shipment.exception event; the note is its reason). Returns 200 with the shipment: the exception is part of the shipment, not a record of its own.",
    "Ways out: `POST /shipments/{id}/handoff` resumes it to in_transit, `/receive` receives (and resumes), `/return-to-sender` returns it.",
  ].join(" "),
  tags: ["Transit"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: ReportShipmentException,
  file: import.meta.path,
  responses: { 200: { description: "The shipment, in exception", schema: ShipmentDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await report(ctx, params.id, body) }),
});
