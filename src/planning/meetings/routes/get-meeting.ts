import { defineRoute } from "../../../platform/http/define-route.ts";
import { MeetingDetail, MeetingParams } from "../meetings.schemas.ts";
import { getMeetingDetail } from "../meetings.service.ts";

export const getMeeting = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/meetings/{meetingId}",
  operationId: "getMeeting",
  summary: "A meeting with its ordered agenda and minutes revisions",
  description:
    "The meeting record, its agenda in order (each item's start derived from the meeting's start and the durations before it), every minutes revision oldest first, and the exceptions of a recurring series. A meeting outside the caller's projects is 404.",
  tags: ["Meetings"],
  auth: "session",
  capability: "planning_view",
  params: MeetingParams,
  file: import.meta.path,
  responses: { 200: { description: "The meeting, agenda and minutes", schema: MeetingDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await getMeetingDetail(ctx, params.projectId, params.meetingId) }),
});
