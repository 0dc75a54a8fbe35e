import { listRoute } from "../collection-routes.ts";
import { MeetingListQuery, MeetingList } from "../collections.schemas.ts";

export const listMeetings = listRoute({
  collection: "meetings",
  operationId: "listMeetings",
  summary: "List the project's meetings",
  tag: "Meetings",
  description: "The project's meetings, ordered by (updatedAt, id) descending; `state` filters (comma-separated). A project out of the caller's scope is 404.",
  query: MeetingListQuery,
  list: MeetingList,
  file: import.meta.path,
});
