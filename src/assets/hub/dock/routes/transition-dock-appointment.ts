import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { DockAppointment, TransitionDockAppointment } from "../dock.schemas.ts";
import { transitionDockAppointment as transition } from "../dock.service.ts";

export const transitionDockAppointment = defineRoute({
  family: "assets",
  method: "post",
  path: "/hub/dock-appointments/{id}/transition",
  operationId: "transitionDockAppointment",
  summary: "Move a dock appointment to another state",
  description: [
    "The table: scheduled → arrived, cancelled or no_show; arrived → unloading (inbound) or loading (outbound); loading and unloading → completed;",
    "completed, cancelled and no_show are final. Any other move is 409 state_conflict naming the current state, as is loading an inbound or unloading an",
    "outbound appointment, and no_show before scheduledAt. arrivedAt, startedAt (loading or unloading) and closedAt (completed, cancelled, no_show) take",
    "the server time; each move is recorded in the history with the reason.",
  ].join(" "),
  tags: ["Logistics hub"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: TransitionDockAppointment,
  file: import.meta.path,
  responses: { 200: { description: "The appointment in its new state", schema: DockAppointment } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await transition(ctx, params.id, body) }),
});
