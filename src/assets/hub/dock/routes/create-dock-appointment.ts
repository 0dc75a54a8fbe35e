import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { CreateDockAppointment, DockAppointment } from "../dock.schemas.ts";
import { createDockAppointment as create } from "../dock.service.ts";

export const createDockAppointment = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/dock-appointments",
  operationId: "createDockAppointment",
  summary: "Schedule a dock appointment",
  description:
    "A carrier's inbound or outbound slot at a dock (an active location, else 400), created `scheduled`. scheduledAt may not lie more than 5 minutes " +
    "in the past. shipmentId is kept as a reference to a shipment and not checked against transit.",
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  body: CreateDockAppointment,
  file: import.meta.path,
  responses: { 201: { description: "The appointment", schema: DockAppointment, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const appointment = await create(ctx, body);
    return { status: 201, body: appointment, headers: { Location: `/api/assets/hub/records/${appointment.id}?partnerId=${query.partnerId}` } };
  },
});
