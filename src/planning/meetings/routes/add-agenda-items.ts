import { defineRoute } from "../../../platform/http/define-route.ts";
import { AddAgendaItems, MeetingDetail, MeetingParams } from "../meetings.schemas.ts";
import { addAgendaItems as add } from "../meetings.service.ts";

export const addAgendaItems = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/meetings/{meetingId}/agenda",
  operationId: "addAgendaItems",
  summary: "Add agenda items to a meeting, in order",
  description: [
    "planning_edit and a project role above viewer. Each item has a title, a duration in minutes, an optional presenter (a project member, else 400 at its path)",
    "and an optional 0-based `position` (default: the end); items are placed one after another in request order and later items move down.",
    "A completed or cancelled meeting is 409 state_conflict. Answers 200 with the meeting, its whole ordered agenda and its minutes. Audited.",
  ].join(" "),
  tags: ["Meetings"],
  auth: "session",
  capability: "planning_edit",
  params: MeetingParams,
  body: AddAgendaItems,
  file: import.meta.path,
  responses: { 200: { description: "The meeting with its agenda", schema: MeetingDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await add(ctx, params.projectId, params.meetingId, body) }),
});
