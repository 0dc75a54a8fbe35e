import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateMinutes, MeetingParams, MinutesRevision } from "../meetings.schemas.ts";
import { addMinutesRevision } from "../meetings.service.ts";

export const createMinutes = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/meetings/{meetingId}/minutes",
  operationId: "createMinutes",
  summary: "Add an immutable minutes revision",
  description: [
    "Each call adds revision n+1 (Markdown `content`, `decisions`, `actionItems`) in state `draft` (default), `review` or `published`; no revision's content ever changes.",
    "Publishing needs planning_review (403 otherwise) and supersedes the prior published revision (its state becomes `superseded`, its content stays).",
    "On publication each decision with `createWorkItem: true` and each action item (unless `createWorkItem: false`) becomes a work item of the project, once per meeting:",
    "a later revision naming the same text reuses the work item. Assignees must be project members (400 at their path). A cancelled meeting is 409. Audited.",
  ].join(" "),
  tags: ["Meetings"],
  auth: "session",
  capability: "planning_edit",
  params: MeetingParams,
  body: CreateMinutes,
  file: import.meta.path,
  responses: { 201: { description: "The new revision", schema: MinutesRevision, headers: LocationHeader } },
  handler: async (ctx, { params, body, query }) => {
    const revision = await addMinutesRevision(ctx, params.projectId, params.meetingId, body);
    return { status: 201, body: revision, headers: { Location: `/api/planning/projects/${params.projectId}/meetings/${params.meetingId}?partnerId=${query.partnerId}` } };
  },
});
