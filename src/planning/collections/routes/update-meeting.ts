import { updateRoute } from "../collection-routes.ts";
import { UpdateMeeting, Meeting } from "../collections.schemas.ts";
import { MeetingParams } from "../../meetings/index.ts";

export const updateMeeting = updateRoute({
  collection: "meetings",
  operationId: "updateMeeting",
  summary: "Change one of the project's meetings (versioned)",
  description: "`state` moves: draft → scheduled; scheduled → in_progress; in_progress → completed; draft, scheduled and in_progress → cancelled; others are 409 state_conflict.",
  tag: "Meetings",
  body: UpdateMeeting,
  record: Meeting,
  // The meeting's name on every meeting route (GET, agenda, minutes, occurrences): one path template.
  id: { name: "meetingId", params: MeetingParams },
  file: import.meta.path,
});
